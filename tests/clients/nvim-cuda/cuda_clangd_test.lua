-- ptxls and clangd on one CUDA buffer in headless Neovim (0.8+), through the Neovim block of
-- docs/editors.md. Run by tests/clients/nvim-cuda/run.sh, which extracts that block into INIT,
-- copies tests/clients/fixtures/inline_asm.cu into the project WORK/project (with a .clangd
-- that lets clangd parse CUDA without a CUDA installation) and puts `ptxls` and `clangd` on PATH.
--
-- Checks: the buffer is `cuda`; both servers attach to it; each one's diagnostics arrive in its
-- own namespace and vim.diagnostic.get(buf) shows both sets: ptxls's inside the asm strings
-- (ISA004 at `.relaxd`; ASM013 naming the compute_90 pass that the documented cuda.arch sm_90a
-- implies), clangd's on the C++ (the undeclared `launch_count`), neither on the other's code;
-- hover inside an asm string comes from ptxls, on C++ from clangd, and ptxls has nothing to say
-- about C++; formatting through ptxls leaves the CUDA buffer alone.
--
-- Prints one JSON object on stdout (and to OUT_JSON). Exit status: 0 all checks passed,
-- 1 a check failed, 2 harness error.

local function env(name)
  local value = os.getenv(name)
  if value == nil or value == '' then return nil end
  return value
end

local work = env('WORK')
local init = env('INIT')
-- clangd parses and indexes before it publishes: more than ptxls needs.
local timeout = tonumber(env('LSP_TIMEOUT_MS') or '20000')
local v = vim.version()
local version = string.format('%d.%d.%d', v.major, v.minor, v.patch)
local started = vim.loop.hrtime()

local function finish(code, result)
  result.nvim = version
  result.seconds = math.floor((vim.loop.hrtime() - started) / 1e7) / 100
  local text = vim.json.encode(result)
  local out = env('OUT_JSON')
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

-- 0-based line and byte column of the first occurrence of `needle` (plain) in the buffer.
local function find(bufnr, needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then return i - 1, col - 1 end
  end
  error('buffer ' .. bufnr .. ' has no ' .. needle)
end

-- Client methods: dot calls up to 0.10 (closures over the client), colon calls from 0.11.
local function request_sync(client, method, params, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request_sync(method, params, 5000, bufnr)
  end
  return client.request_sync(method, params, 5000, bufnr)
end

local function attached(bufnr, name)
  for _, client in ipairs(vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr })
                          or vim.lsp.get_active_clients({ bufnr = bufnr })) do
    if client.name == name and client.initialized then return client end
  end
end

-- The namespaces a client's diagnostics can land in: pushed, and (0.10+) pulled.
local function namespaces_of(client)
  local result = { [vim.lsp.diagnostic.get_namespace(client.id, false)] = true }
  local ok, pull = pcall(vim.lsp.diagnostic.get_namespace, client.id, true)
  if ok and pull then result[pull] = true end
  return result
end

local function diagnostics_of(bufnr, client)
  local spaces = namespaces_of(client)
  local result = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if spaces[d.namespace] then
      table.insert(result, { lnum = d.lnum, col = d.col, severity = d.severity, message = d.message, source = d.source,
                             code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) })
    end
  end
  table.sort(result, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
  return result
end

local function hover_text(client, bufnr, line, col)
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = line, character = col } }
  local response, err = request_sync(client, 'textDocument/hover', params, bufnr)
  if err or not response then return nil, tostring(err or 'no response') end
  if response.err then return nil, vim.inspect(response.err) end
  local result = response.result
  if result == nil or result == vim.NIL then return nil end
  local contents = result.contents
  if type(contents) == 'string' then return contents end
  if contents.value then return contents.value end
  local parts = {}
  for _, part in ipairs(contents) do table.insert(parts, type(part) == 'string' and part or part.value) end
  return table.concat(parts, '\n')
end

local ok, err = pcall(function()
  assert(work and init, 'WORK and INIT must be set (run through run.sh)')
  vim.cmd('luafile ' .. vim.fn.fnameescape(init))

  local buf = (function()
    vim.cmd('edit ' .. vim.fn.fnameescape(work .. '/project/inline_asm.cu'))
    return vim.api.nvim_get_current_buf()
  end)()
  check('inline_asm.cu has filetype cuda (Neovim\'s own detection)', vim.bo[buf].filetype == 'cuda', vim.bo[buf].filetype)

  local ptxls, clangd
  vim.wait(timeout, function()
    ptxls, clangd = attached(buf, 'ptxls'), attached(buf, 'clangd')
    return ptxls ~= nil and clangd ~= nil
  end, 20)
  check('ptxls and clangd are both attached to the buffer', ptxls ~= nil and clangd ~= nil and ptxls.id ~= clangd.id,
        { ptxls = ptxls and ptxls.id or vim.NIL, clangd = clangd and clangd.id or vim.NIL })
  if not (ptxls and clangd) then return end   -- the remaining checks need both (a failed check, exit 1)
  check('ptxls was started from PATH, as the documented setup says', ptxls.config.cmd[1] == 'ptxls', ptxls.config.cmd)

  -- Both sets: ptxls's two findings and clangd's undeclared identifier.
  local relaxd_line, relaxd_col = find(buf, '.relaxd.u32')
  local wgmma_line, wgmma_col = find(buf, '"wgmma.fence')   -- the asm string, not the comment
  wgmma_col = wgmma_col + 1
  local host_line, host_col = find(buf, 'launch_count + 1')
  local function complete()
    local mine, theirs = diagnostics_of(buf, ptxls), diagnostics_of(buf, clangd)
    local has_host = false
    for _, d in ipairs(theirs) do if d.lnum == host_line then has_host = true end end
    return #mine >= 2 and has_host
  end
  vim.wait(timeout, complete, 50)
  local from_ptxls, from_clangd = diagnostics_of(buf, ptxls), diagnostics_of(buf, clangd)
  local shown = vim.diagnostic.get(buf)

  local isa004, asm013
  for _, d in ipairs(from_ptxls) do
    if d.code == 'ISA004' then isa004 = d end
    if d.code == 'ASM013' then asm013 = d end
  end
  check('ptxls: ISA004 at .relaxd inside the asm string', isa004 ~= nil and isa004.lnum == relaxd_line
        and isa004.col == relaxd_col and isa004.severity == vim.diagnostic.severity.ERROR
        and isa004.message:find("unknown modifier '.relaxd' for 'ld'", 1, true) ~= nil, from_ptxls)
  check('ptxls: ASM013 at wgmma for the compute_90 pass of cuda.arch sm_90a (the documented settings)',
        asm013 ~= nil and asm013.lnum == wgmma_line and asm013.col == wgmma_col
        and asm013.message:find('compute_90 ', 1, true) ~= nil and asm013.message:find('sm_90a', 1, true) ~= nil,
        from_ptxls)
  local outside = {}
  for _, d in ipairs(from_ptxls) do
    if d.lnum ~= relaxd_line and d.lnum ~= wgmma_line then table.insert(outside, d) end
  end
  check('ptxls reports nothing outside the two asm statements', #outside == 0 and #from_ptxls == 2, from_ptxls)

  local undeclared
  for _, d in ipairs(from_clangd) do
    if d.lnum == host_line and d.col == host_col and d.message:find('launch_count', 1, true) then undeclared = d end
  end
  check("clangd: the undeclared identifier 'launch_count' in host code", undeclared ~= nil
        and undeclared.severity == vim.diagnostic.severity.ERROR, from_clangd)
  local in_asm = {}
  for _, d in ipairs(from_clangd) do
    if d.lnum == relaxd_line or d.lnum == wgmma_line then table.insert(in_asm, d) end
  end
  check('clangd reports nothing on the asm statements', #in_asm == 0, in_asm)

  -- vim.diagnostic.get(buf) is what the signs, virtual text and :lua vim.diagnostic.setloclist()
  -- show: every diagnostic of both servers, and nothing else.
  local counted = { ptxls = 0, clangd = 0, other = 0 }
  local ptxls_spaces, clangd_spaces = namespaces_of(ptxls), namespaces_of(clangd)
  for _, d in ipairs(shown) do
    if ptxls_spaces[d.namespace] then counted.ptxls = counted.ptxls + 1
    elseif clangd_spaces[d.namespace] then counted.clangd = counted.clangd + 1
    else counted.other = counted.other + 1 end
  end
  check('vim.diagnostic.get(buf) shows both sets, each from its own namespace', counted.ptxls == #from_ptxls
        and counted.ptxls >= 2 and counted.clangd == #from_clangd and counted.clangd >= 1 and counted.other == 0, counted)

  -- Hover: each server on its own part of the file.
  local mov_line, mov_col = find(buf, 'mov.u32 %0')
  local mov = hover_text(ptxls, buf, mov_line, mov_col + 1)
  check('ptxls hovers `mov` inside an asm string', mov ~= nil and mov:find('**mov**', 1, true) ~= nil,
        mov and mov:sub(1, 160) or vim.NIL)
  local name_line, name_col = find(buf, 'load_relaxed(const')
  local cxx, cxx_err = hover_text(ptxls, buf, name_line, name_col + 2)
  check('ptxls has no hover for C++ (the name of the function load_relaxed)', cxx == nil and cxx_err == nil,
        { hover = cxx or vim.NIL, error = cxx_err or vim.NIL })
  local clangd_hover, clangd_err = hover_text(clangd, buf, name_line, name_col + 2)
  check('clangd hovers the same name', clangd_hover ~= nil and clangd_hover:find('function `load_relaxed`', 1, true) ~= nil,
        clangd_hover and clangd_hover:sub(1, 160) or clangd_err or vim.NIL)

  -- vim.lsp.buf.format() asks every attached server that formats: ptxls must leave C++ alone.
  local before = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  vim.lsp.buf.format({ bufnr = buf, timeout_ms = 5000, filter = function(client) return client.name == 'ptxls' end })
  check('formatting through ptxls leaves the CUDA buffer unchanged',
        vim.deep_equal(before, vim.api.nvim_buf_get_lines(buf, 0, -1, false)), vim.bo[buf].modified)
end)
if not ok then
  finish(2, { error = tostring(err), checks = checks })
  return
end

local failed = 0
for _, c in ipairs(checks) do if not c.ok then failed = failed + 1 end end
finish(failed == 0 and 0 or 1, { passed = #checks - failed, failed = failed, checks = checks })
