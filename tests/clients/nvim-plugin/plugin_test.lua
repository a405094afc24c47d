-- The Neovim plugin (clients/nvim) in headless Neovim, 0.7.2 (Debian 12) and 0.8+ (checked
-- with 0.10.4), driving the real server. Run through tests/clients/nvim-plugin/run.sh, which
-- puts clients/nvim on 'runtimepath' with --cmd (as a plugin manager would, before filetype
-- detection sources ftdetect/), lays out the projects below and compiles the grammar.
--
-- Environment (run.sh sets it): PTXLS_BINARY, REPO (the checkout), WORK (the projects),
-- PTX_PARSER (grammar/src compiled), OUT_JSON; PATH has a folder holding `ptxls`.
--   WORK/a/.git/           project a: broken.ptx, sub/typo.ptx, inline_asm.cu
--   WORK/b/.ptxls.json     project b: vecadd.ptx
--   WORK/other/            scan.ptx (a Leica point cloud, not PTX), empty.ptx (0 bytes)
--
-- Everything goes through require('ptxls').setup{}: content-based filetype detection, one
-- client per root, settings via initializationOptions and workspace/configuration,
-- diagnostics, hover (the float), definition (the cursor moves), rename (the buffer changes),
-- :PtxlsInfo, :PtxlsRestart, the ftplugin, the tree-sitter parser with the shipped queries, and
-- CUDA buffers (filetype cuda): attached by default, with the server's finding inside an asm
-- string, and left alone with filetypes = { 'ptx' }.
-- Expected positions are found in the buffers' text.
--
-- Prints one JSON object on stdout (and to OUT_JSON). Exit status: 0 all checks passed,
-- 1 a check failed, 2 harness error.

local function env(name)
  local value = os.getenv(name)
  if value == nil or value == '' then return nil end
  return value
end

local server = env('PTXLS_BINARY')
local work = env('WORK')
local repo = env('REPO')
local parser_path = env('PTX_PARSER')
local timeout = tonumber(env('LSP_TIMEOUT_MS') or '5000')
local encode = (vim.json and vim.json.encode) or vim.fn.json_encode
local v = vim.version()
local version = string.format('%d.%d.%d', v.major, v.minor, v.patch)
local started = vim.loop.hrtime()

local function finish(code, result)
  result.nvim = version
  result.seconds = math.floor((vim.loop.hrtime() - started) / 1e7) / 100
  local text = encode(result)
  local out = os.getenv('OUT_JSON')
  if out then
    local f = io.open(out, 'w')
    if f then f:write(text, '\n'); f:close() end
  end
  io.stdout:write(text, '\n')
  io.stdout:flush()
  vim.cmd(code == 0 and 'qall!' or ('cquit ' .. code))
end

local checks = {}
local function check(name, ok, got)
  table.insert(checks, { name = name, ok = ok and true or false, got = got == nil and vim.NIL or got })
  return ok
end

local function wait(condition)
  return vim.wait(timeout, condition, 20)
end

-- 0-based line and byte column of the first occurrence of `needle` (plain) in the buffer.
local function find(bufnr, needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then return i - 1, col - 1 end
  end
  error('buffer ' .. bufnr .. ' has no ' .. needle)
end

local function open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  return vim.api.nvim_get_current_buf()
end

-- The live ptxls clients attached to a buffer.
local function clients_of(bufnr)
  local result = {}
  local all = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  for _, client in ipairs(all) do
    if client.name == 'ptxls' and not client.is_stopped() and vim.lsp.buf_is_attached(bufnr, client.id) then
      table.insert(result, client)
    end
  end
  return result
end

local function the_client(bufnr)
  local found
  wait(function()
    local list = clients_of(bufnr)
    found = #list == 1 and list[1] or nil
    return found ~= nil and found.initialized
  end)
  return found
end

local function diagnostics(bufnr)
  local result = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(result, { lnum = d.lnum, col = d.col, severity = d.severity, message = d.message,
                           code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) })
  end
  table.sort(result, function(a, b) return a.lnum < b.lnum end)
  return result
end

-- Counts diagnostic reports by URI (an empty one too), then lets Neovim handle them: pushed
-- (publishDiagnostics) or, from Neovim 0.10 on, pulled (textDocument/diagnostic: the server
-- pushes only to clients that cannot pull).
local reports, report_kinds = {}, {}
local function count(uri, kind)
  reports[uri] = (reports[uri] or 0) + 1
  report_kinds[kind] = true
end
local default_publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  if result and result.uri then count(result.uri, 'push') end
  return default_publish(err, result, ctx, config)
end
local default_pull = vim.lsp.handlers['textDocument/diagnostic']
if default_pull then
  vim.lsp.handlers['textDocument/diagnostic'] = function(err, result, ctx, config)
    if result and ctx.params and ctx.params.textDocument then count(ctx.params.textDocument.uri, 'pull') end
    return default_pull(err, result, ctx, config)
  end
end
local function published(bufnr) return reports[vim.uri_from_bufnr(bufnr)] or 0 end

-- What Neovim answers to the server's workspace/configuration requests.
local configuration_answers = {}
local default_configuration = vim.lsp.handlers['workspace/configuration']
vim.lsp.handlers['workspace/configuration'] = function(err, result, ctx, config)
  local answer = default_configuration(err, result, ctx, config)
  if type(answer) == 'table' and answer[1] ~= nil then table.insert(configuration_answers, vim.deepcopy(answer[1])) end
  return answer
end

local function floating_window()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then return win end
  end
end

local function check_filetype_detection()
  local ft = require('ptxls.filetype')
  local cases = {
    { 'nvcc header', { '//', '// Generated by NVIDIA NVVM Compiler', '//', '', '.version 8.0', '.target sm_80' }, true },
    { 'block comment first', { '/* a', '   .version 1.0 inside a comment */', '  .version 7.8' }, true },
    { 'empty', { '' }, true },
    { 'only comments', { '// .version 8.0', '/* */' }, false },
    { 'leica point cloud', { '3', '2', '0 0 0', '1 0 0 0', '0 1 0 0', '0 0 1 0', '0 0 0 1', '0.1 0.2 0.3 0.5' }, false },
    { '.version after 60 code lines', vim.list_extend(vim.fn['repeat']({ 'x;' }, 60), { '.version 8.0' }), false },
    { '.versions is no directive', { '.versions 8.0' }, false },
  }
  local wrong = {}
  for _, case in ipairs(cases) do
    if ft.is_ptx(case[2]) ~= case[3] then table.insert(wrong, case[1]) end
  end
  check('is_ptx on hand-made starts of files', #wrong == 0, wrong)
end

local ok, err = pcall(function()
  assert(server and vim.fn.executable(server) == 1, 'PTXLS_BINARY is not executable: ' .. tostring(server))
  assert(work, 'WORK is not set')
  local ptxls = require('ptxls')
  check_filetype_detection()

  local rejected, message = pcall(ptxls.setup, { root_marker = { '.git' } })
  check('setup rejects an unknown option', not rejected and tostring(message):find('root_marker', 1, true) ~= nil,
        tostring(message))

  -- 1. setup with the default cmd (`ptxls` from PATH), settings, on_attach, capabilities
  check('`ptxls` on PATH for the default cmd', vim.fn.exepath('ptxls') ~= '', vim.fn.exepath('ptxls'))
  local attached = {}
  ptxls.setup({
    settings = { rules = { SEM001 = 'warning' }, format = {} },
    on_attach = function(client, bufnr) attached[bufnr] = client.id end,
    capabilities = { experimental = { ptxlsPluginTest = true } },
  })

  -- 2. project a: broken.ptx (two ISA004 errors)
  local broken = open(work .. '/a/broken.ptx')
  check('broken.ptx has filetype ptx', vim.bo[broken].filetype == 'ptx', vim.bo[broken].filetype)
  check('ftplugin sets commentstring', vim.bo[broken].commentstring == '// %s', vim.bo[broken].commentstring)
  local client_a = the_client(broken)
  assert(client_a, 'no initialized ptxls client for broken.ptx')
  check('on_attach called for broken.ptx', attached[broken] == client_a.id, attached[broken])
  check('root of a/broken.ptx is a/ (.git)', client_a.config.root_dir == work .. '/a', client_a.config.root_dir)
  check('cmd defaults to ptxls', client_a.config.cmd[1] == 'ptxls' and #client_a.config.cmd == 1, client_a.config.cmd)
  local caps = client_a.config.capabilities
  check('capabilities merged over the defaults', caps.experimental and caps.experimental.ptxlsPluginTest == true
        and caps.textDocument and caps.textDocument.hover ~= nil, caps.experimental)
  check('settings sent as initializationOptions', client_a.config.init_options.rules.SEM001 == 'warning',
        vim.deepcopy(client_a.config.init_options))

  wait(function() return #vim.diagnostic.get(broken) == 2 end)
  local seen = diagnostics(broken)
  local globl_line, globl_col = find(broken, '.globl')
  local s33_line = find(broken, '.s33')
  check('broken.ptx: ISA004 on the ld.globl and add.s33 lines', #seen == 2
        and seen[1].code == 'ISA004' and seen[1].lnum == globl_line and seen[1].col == globl_col
        and seen[1].severity == vim.diagnostic.severity.ERROR
        and seen[2].code == 'ISA004' and seen[2].lnum == s33_line, seen)

  -- 3. a/sub/typo.ptx: the same client; SEM001 as the settings say
  local typo = open(work .. '/a/sub/typo.ptx')
  local client_typo = the_client(typo)
  check('a/sub/typo.ptx reuses the client of a/', client_typo and client_typo.id == client_a.id,
        client_typo and client_typo.id)
  wait(function() return #vim.diagnostic.get(typo) == 1 end)
  seen = diagnostics(typo)
  local r9_line = find(typo, '%r9')
  check('typo.ptx: SEM001 on %r9, a warning as settings.rules says', #seen == 1 and seen[1].code == 'SEM001'
        and seen[1].lnum == r9_line and seen[1].severity == vim.diagnostic.severity.WARN, seen)

  -- Settings changed at run time: Neovim 0.10 advertises workspace/configuration, so the
  -- server asks for section "ptxls" and Neovim looks it up in the client's settings, which
  -- the plugin laid out for that; 0.7 does not, and the server reads the notification's.
  for _, settings in ipairs({ client_a.config.settings, client_a.settings }) do
    settings.ptxls.rules.SEM001 = 'off'
  end
  local before = published(typo)
  client_a.notify('workspace/didChangeConfiguration', { settings = client_a.config.settings })
  if default_pull then
    -- Neovim 0.10 pulls again on the next change only (it has no workspace/diagnostic/refresh):
    -- add a blank line once the server has asked for the new settings.
    wait(function() return #configuration_answers > 0 and configuration_answers[#configuration_answers].rules.SEM001 == 'off' end)
    vim.api.nvim_buf_set_lines(typo, -1, -1, false, { '' })
  end
  wait(function() return published(typo) > before and #vim.diagnostic.get(typo) == 0 end)
  check('SEM001 off after didChangeConfiguration', #vim.diagnostic.get(typo) == 0, diagnostics(typo))
  if vim.lsp.protocol.make_client_capabilities().workspace.configuration then
    check('the server pulled section ptxls (workspace/configuration)', #configuration_answers > 0
          and configuration_answers[#configuration_answers].rules.SEM001 == 'off', configuration_answers)
  end

  -- 4. project b (.ptxls.json): a second client; vecadd.ptx is clean
  local vecadd = open(work .. '/b/vecadd.ptx')
  local client_b = the_client(vecadd)
  check('b/vecadd.ptx gets its own client, root b/ (.ptxls.json)', client_b and client_b.id ~= client_a.id
        and client_b.config.root_dir == work .. '/b', client_b and { id = client_b.id, root = client_b.config.root_dir })
  wait(function() return published(vecadd) > 0 end)
  check('vecadd.ptx: a report, no diagnostics', published(vecadd) > 0 and #vim.diagnostic.get(vecadd) == 0,
        { reports = published(vecadd), diagnostics = diagnostics(vecadd), kinds = vim.tbl_keys(report_kinds) })

  -- 5. .ptx files that are not PTX, and new ones
  local scan = open(work .. '/other/scan.ptx')
  check('a point-cloud .ptx is not ptx, no client', vim.bo[scan].filetype ~= 'ptx' and #clients_of(scan) == 0,
        vim.bo[scan].filetype)
  local empty = open(work .. '/other/empty.ptx')
  check('an empty .ptx is ptx', vim.bo[empty].filetype == 'ptx', vim.bo[empty].filetype)
  local new = open(work .. '/other/new.ptx')
  check('a new .ptx (no file yet) is ptx, with a client', vim.bo[new].filetype == 'ptx'
        and the_client(new) ~= nil, vim.bo[new].filetype)
  local plain = open(work .. '/other/notes.txt')
  check('a .txt file is left alone', vim.bo[plain].filetype ~= 'ptx', vim.bo[plain].filetype)

  -- 5b. a CUDA source in project a: Neovim's filetype cuda, the client of a/, and the server's
  -- finding inside an asm string (pushed to 0.7, pulled by 0.10)
  local cuda = open(work .. '/a/inline_asm.cu')
  check('inline_asm.cu has filetype cuda', vim.bo[cuda].filetype == 'cuda', vim.bo[cuda].filetype)
  local client_cuda = the_client(cuda)
  check('a/inline_asm.cu attaches to the client of a/', client_cuda and client_cuda.id == client_a.id,
        client_cuda and client_cuda.id)
  local relaxd_line, relaxd_col = find(cuda, '.relaxd.u32')
  local function isa004()
    for _, d in ipairs(diagnostics(cuda)) do if d.code == 'ISA004' then return d end end
  end
  wait(function() return isa004() ~= nil end)
  local relaxd = isa004()
  check('inline_asm.cu: ISA004 at .relaxd inside the asm string', relaxd and relaxd.lnum == relaxd_line
        and relaxd.col == relaxd_col, diagnostics(cuda))

  -- 6. hover: vim.lsp.buf.hover() on `st` opens a float with the server's documentation
  vim.cmd('buffer ' .. broken)
  local st_line, st_col = find(broken, 'st.global.u32')
  vim.api.nvim_win_set_cursor(0, { st_line + 1, st_col })
  vim.lsp.buf.hover()
  local float
  wait(function() float = floating_window(); return float ~= nil end)
  local hover = float and table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false), '\n')
  check('hover float on st shows its documentation', hover and hover:find('**st**', 1, true) ~= nil
        and hover:find('st.volatile{.ss}', 1, true) ~= nil, hover and hover:sub(1, 160) or vim.NIL)
  if float then vim.api.nvim_win_close(float, true) end

  -- 7. definition: from %r1 in `add.s33 %r2, %r1, %r1` to the `.reg .b32 %r<4>` line
  local use_line, use_col = find(broken, '%r1, %r1')
  local decl_line, decl_col = find(broken, '%r<4>')
  vim.api.nvim_win_set_cursor(0, { use_line + 1, use_col + 1 })
  vim.lsp.buf.definition()
  wait(function() return vim.api.nvim_win_get_cursor(0)[1] == decl_line + 1 end)
  local cursor = vim.api.nvim_win_get_cursor(0)
  check('definition moves the cursor to %r<4>', cursor[1] == decl_line + 1 and cursor[2] >= decl_col
        and cursor[2] < decl_col + #'%r<4>', { line = cursor[1] - 1, col = cursor[2] })

  -- 8. rename %r1 to %rnew: the `%r<4>` family's prefix is what renames, so %r<4> becomes
  -- %rnew<4> and every %rN becomes %rnewN; %rd is another family and stays.
  local original = vim.api.nvim_buf_get_lines(broken, 0, -1, false)
  local expected = {}
  for i, line in ipairs(original) do expected[i] = (line:gsub('%%r([<%d])', '%%rnew%1')) end
  vim.api.nvim_win_set_cursor(0, { use_line + 1, use_col + 1 })
  vim.lsp.buf.rename('%rnew')
  wait(function() return not vim.deep_equal(vim.api.nvim_buf_get_lines(broken, 0, -1, false), original) end)
  local renamed = vim.api.nvim_buf_get_lines(broken, 0, -1, false)
  local differing = {}
  for i = 1, math.max(#renamed, #expected) do
    if renamed[i] ~= expected[i] then table.insert(differing, { line = i - 1, got = renamed[i] or vim.NIL, want = expected[i] or vim.NIL }) end
  end
  local changed = 0
  for i, line in ipairs(original) do if line ~= expected[i] then changed = changed + 1 end end
  check('rename %r1 -> %rnew changes every %r register and nothing else', #differing == 0 and changed > 0,
        #differing == 0 and { lines_changed = changed } or differing)

  -- 9. :PtxlsInfo
  vim.cmd('buffer ' .. broken)
  local info = vim.api.nvim_exec('PtxlsInfo', true)
  check(':PtxlsInfo names the client of this buffer and its root',
        info:find(string.format('client %d: running, root %s', client_a.id, work .. '/a'), 1, true) ~= nil
        and info:find('attached to this buffer', 1, true) ~= nil, info)

  -- 10. setup again with an explicit cmd, then :PtxlsRestart: fresh clients with it
  ptxls.setup({ cmd = { server }, settings = { rules = { SEM001 = 'warning' } } })
  local old = {}
  for _, client in ipairs(vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()) do
    if client.name == 'ptxls' then old[client.id] = client end
  end
  before = published(broken)
  vim.cmd('PtxlsRestart')
  local fresh
  wait(function()
    local list = clients_of(broken)
    fresh = #list == 1 and not old[list[1].id] and list[1].initialized and list[1] or nil
    return fresh ~= nil
  end)
  check(':PtxlsRestart starts a new client with the new cmd', fresh and fresh.config.cmd[1] == server,
        fresh and { id = fresh.id, cmd = fresh.config.cmd } or vim.NIL)
  -- Neovim forgets a client once its server has exited and its buffers are detached.
  wait(function()
    for id in pairs(old) do if vim.lsp.get_client_by_id(id) then return false end end
    return true
  end)
  local left = {}
  for id in pairs(old) do if vim.lsp.get_client_by_id(id) then table.insert(left, id) end end
  check('the old clients (a, b, other/) are gone', vim.tbl_count(old) == 3 and #left == 0,
        { old = vim.tbl_keys(old), left = left })
  wait(function() return published(broken) > before and #vim.diagnostic.get(broken) == 2 end)
  check('diagnostics again after the restart', #vim.diagnostic.get(broken) == 2, diagnostics(broken))
  local typo_clients = clients_of(typo)
  check('typo.ptx re-attached to the same new client', #typo_clients == 1 and fresh
        and typo_clients[1].id == fresh.id, #typo_clients)
  local cuda_clients = clients_of(cuda)
  check('inline_asm.cu re-attached to the same new client', #cuda_clients == 1 and fresh
        and cuda_clients[1].id == fresh.id, #cuda_clients)

  -- 10b. filetypes = { 'ptx' }: CUDA buffers are left to other servers, PTX ones are not
  ptxls.setup({ cmd = { server }, filetypes = { 'ptx' } })
  local left_alone = open(work .. '/b/other.cu')
  check('with filetypes { "ptx" } a new .cu buffer (cuda) gets no ptxls client',
        vim.bo[left_alone].filetype == 'cuda' and #clients_of(left_alone) == 0,
        { filetype = vim.bo[left_alone].filetype, clients = #clients_of(left_alone) })
  local still = open(work .. '/b/another.ptx')
  check('with filetypes { "ptx" } a new .ptx buffer still gets one', the_client(still) ~= nil, vim.bo[still].filetype)
end)
if not ok then
  finish(2, { error = tostring(err), checks = checks })
  return
end

-- 11. tree-sitter: the compiled grammar with the queries in clients/nvim/queries/ptx
local ts_ok, ts_err = pcall(function()
  assert(parser_path, 'PTX_PARSER is not set')
  local ts = vim.treesitter
  if ts.language.add then
    ts.language.add('ptx', { path = parser_path })       -- 0.9+
  else
    ts.require_language('ptx', parser_path)               -- 0.7, 0.8
  end
  local get_query = ts.query.get or ts.query.get_query
  local get_files = ts.query.get_files or ts.query.get_query_files
  local plugin_queries = vim.fn.resolve(repo .. '/clients/nvim/queries/ptx')
  local vecadd = vim.fn.bufnr(work .. '/b/vecadd.ptx')
  local problems = {}
  for _, name in ipairs({ 'highlights', 'locals', 'folds', 'tags' }) do
    local files = get_files('ptx', name)
    if #files ~= 1 or vim.fn.resolve(vim.fn.fnamemodify(files[1], ':p:h')) ~= plugin_queries then
      table.insert(problems, { query = name, files = files })
    end
    -- Every predicate runs on every fixture: a regex Neovim cannot compile fails here.
    local loaded, query = pcall(get_query, 'ptx', name)
    if not loaded or not query then
      table.insert(problems, { query = name, error = tostring(query) })
    else
      for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
        if vim.api.nvim_buf_is_loaded(bufnr) and vim.bo[bufnr].filetype == 'ptx' then
          local ran, failure = pcall(function()
            local root = ts.get_parser(bufnr, 'ptx'):parse()[1]:root()
            for _ in query:iter_captures(root, bufnr, 0, -1) do end
          end)
          if not ran then table.insert(problems, { query = name, buffer = vim.api.nvim_buf_get_name(bufnr), error = failure }) end
        end
      end
    end
  end
  check('the four shipped queries load from clients/nvim/queries/ptx and run on every buffer', #problems == 0, problems)

  -- The captures at a position, through the highlighter where Neovim has one that says.
  local function captures_at(bufnr, row, col)
    local names = {}
    if ts.get_captures_at_pos then                       -- 0.9+
      for _, capture in ipairs(ts.get_captures_at_pos(bufnr, row, col)) do table.insert(names, capture.capture) end
      return names
    end
    local query = get_query('ptx', 'highlights')
    local root = ts.get_parser(bufnr, 'ptx'):parse()[1]:root()
    for id, node in query:iter_captures(root, bufnr, row, row + 1) do
      local sr, sc, er, ec = node:range()
      if (sr < row or (sr == row and sc <= col)) and (er > row or (er == row and ec > col)) then
        table.insert(names, query.captures[id])
      end
    end
    return names
  end

  if ts.start then ts.start(vecadd, 'ptx') else ts.highlighter.new(ts.get_parser(vecadd, 'ptx')) end
  local ld_line, ld_col = find(vecadd, 'ld.param.u64')
  local at_ld = captures_at(vecadd, ld_line, ld_col)
  check('highlighting: the opcode ld is @function.builtin', vim.tbl_contains(at_ld, 'function.builtin'), at_ld)
  local bra_line, bra_col = find(vecadd, '$L__BB0_2;')
  local at_label = captures_at(vecadd, bra_line, bra_col)
  check('highlighting: the bra target is @label', vim.tbl_contains(at_label, 'label'), at_label)

  -- The `#match?` patterns, rewritten for Vim's regexes, still mean what they say.
  -- A scratch buffer (buftype nofile): the plugin starts no server for it.
  local scratch = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(scratch, 0, -1, false, {
    '.version 8.0', '.target sm_80', '.address_size 64', '.entry k()', '{', '.reg .b32 %r<2>;',
    'mov.u32 %r1, %envreg3;', 'ret;', '}' })
  vim.bo[scratch].filetype = 'ptx'
  if ts.start then ts.start(scratch, 'ptx') end
  local env_line, env_col = find(scratch, '%envreg3')
  local reg_col = select(2, find(scratch, '%r1,'))
  local at_env, at_reg = captures_at(scratch, env_line, env_col), captures_at(scratch, env_line, reg_col)
  check('highlighting: %envreg3 is @variable.builtin, %r1 is not', vim.tbl_contains(at_env, 'variable.builtin')
        and not vim.tbl_contains(at_reg, 'variable.builtin'), { envreg3 = at_env, r1 = at_reg })
end)
if not ts_ok then check('tree-sitter checks ran', false, tostring(ts_err)) end

local failed = 0
for _, c in ipairs(checks) do if not c.ok then failed = failed + 1 end end
finish(failed == 0 and 0 or 1, { passed = #checks - failed, failed = failed, checks = checks })
