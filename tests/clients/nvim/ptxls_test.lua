-- ptxls in headless Neovim's built-in LSP client: 0.7.2 (Debian 12: start_client +
-- buf_attach_client) and 0.8+ (vim.lsp.start).
--
-- Run through tests/clients/run-nvim-test.sh, or:
--   PTXLS_BINARY=build/ptxls PTX_FILE=tests/clients/fixtures/broken.ptx \
--     nvim --headless --clean -c 'luafile tests/clients/nvim/ptxls_test.lua' </dev/null
--
-- Opens broken.ptx (two ISA004 errors: `ld.globl` and `add.s33`), waits for the pushed
-- diagnostics, hovers an opcode, jumps from a register use to its declaration, fixes `.globl`
-- by editing the buffer (Neovim sends the incremental didChange) and waits for one diagnostic
-- to go, then stops the client and checks that the server exited.
-- Expected positions are found in the buffer's text, not written down as numbers.
--
-- Prints one JSON object on stdout (and to OUT_JSON when set). Exit status: 0 all checks
-- passed, 1 a check failed, 2 harness error (server not startable, Lua error).

local function env(name, default)
  local value = os.getenv(name)
  if value == nil or value == '' then return default end
  return value
end

local server = env('PTXLS_BINARY', nil)
local file = env('PTX_FILE', nil)
local timeout = tonumber(env('LSP_TIMEOUT_MS', '5000'))
local encode = (vim.json and vim.json.encode) or vim.fn.json_encode
local v = vim.version()
local version = string.format('%d.%d.%d', v.major, v.minor, v.patch)

local function finish(code, result)
  result.nvim = version
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

local checks = {}   -- { {name=, ok=, got=} }
local function check(name, ok, got)
  table.insert(checks, { name = name, ok = ok and true or false, got = got == nil and vim.NIL or got })
  return ok
end

-- 0-based line of the first buffer line containing `needle` (plain), and the 0-based byte
-- column of the match (ASCII fixture: bytes = UTF-16 units).
local function find(bufnr, needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then return i - 1, col - 1 end
  end
  error('fixture has no ' .. needle)
end

local ok, err = pcall(function()
  assert(server, 'PTXLS_BINARY is not set')
  assert(file, 'PTX_FILE is not set')
  assert(vim.fn.executable(server) == 1, 'not executable: ' .. server)

  -- Neither 0.7 nor 0.10 knows .ptx.
  vim.cmd('autocmd BufRead,BufNewFile *.ptx setfiletype ptx')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  assert(vim.bo[bufnr].filetype == 'ptx', 'filetype is not ptx: ' .. vim.bo[bufnr].filetype)
  local uri = vim.uri_from_bufnr(bufnr)

  -- Count the publishDiagnostics notifications for this buffer, then let Neovim handle them.
  local publishes = 0
  local default_handler = vim.lsp.handlers['textDocument/publishDiagnostics']
  local function on_publish(err_, result, ctx, config)
    if result and result.uri == uri then publishes = publishes + 1 end
    return default_handler(err_, result, ctx, config)
  end
  local exited_code = nil
  local config = {
    name = 'ptxls',
    cmd = { server },
    root_dir = vim.fn.fnamemodify(file, ':p:h'),
    handlers = { ['textDocument/publishDiagnostics'] = on_publish },
    flags = { debounce_text_changes = 20 },
    on_exit = function(code) exited_code = code end,
  }
  local client_id
  if vim.lsp.start then
    client_id = vim.lsp.start(config)
  else
    client_id = vim.lsp.start_client(config)
    if client_id then vim.lsp.buf_attach_client(bufnr, client_id) end
  end
  assert(client_id, 'the client did not start')

  -- 1. diagnostics pushed after didOpen
  local got = vim.wait(timeout, function() return publishes > 0 or exited_code ~= nil end, 20)
  if exited_code ~= nil then error('the server exited at once with ' .. tostring(exited_code)) end
  check('diagnostics published', got, publishes)
  local diags = vim.diagnostic.get(bufnr)
  table.sort(diags, function(a, b) return a.lnum < b.lnum end)
  local globl_line, globl_col = find(bufnr, '.globl')
  local s33_line, s33_col = find(bufnr, '.s33')
  local seen = {}
  for _, d in ipairs(diags) do
    table.insert(seen, { lnum = d.lnum, col = d.col, end_col = d.end_col, severity = d.severity,
                         code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code),
                         source = d.source, message = d.message })
  end
  check('two diagnostics', #diags == 2, seen)
  if #diags == 2 then
    check('first: ld.globl, ISA004, error', seen[1].lnum == globl_line and seen[1].col == globl_col
          and seen[1].end_col == globl_col + #'.globl' and seen[1].code == 'ISA004'
          and seen[1].severity == vim.diagnostic.severity.ERROR and seen[1].source == 'ptxls', seen[1])
    check('second: add.s33, ISA004', seen[2].lnum == s33_line and seen[2].col == s33_col
          and seen[2].code == 'ISA004' and seen[2].message:find('.s33', 1, true) ~= nil, seen[2])
  end

  local client = vim.lsp.get_client_by_id(client_id)
  assert(client, 'no client for id ' .. tostring(client_id))
  local caps = client.server_capabilities or {}
  check('hover and definition advertised', caps.hoverProvider == true and caps.definitionProvider == true,
        { hoverProvider = caps.hoverProvider or vim.NIL, definitionProvider = caps.definitionProvider or vim.NIL })

  -- 2. hover on the opcode `st` of `st.global.u32`
  local st_line, st_col = find(bufnr, 'st.global.u32')
  local resp = client.request_sync('textDocument/hover',
    { textDocument = { uri = uri }, position = { line = st_line, character = st_col + 1 } }, timeout, bufnr)
  local contents = resp and resp.result and resp.result.contents
  local value = type(contents) == 'table' and contents.value or nil
  check('hover on st is markdown about st', contents and contents.kind == 'markdown' and value
        and value:find('**st**', 1, true) ~= nil, value and value:sub(1, 200) or (resp and resp.err) or vim.NIL)

  -- 3. definition of %r1 in `add.s33 %r2, %r1, %r1` -> the `.reg .b32 %r<4>` line
  local use_line = s33_line
  local use_col = select(2, find(bufnr, '%r1, %r1'))
  local decl_line = find(bufnr, '.reg .b32')
  resp = client.request_sync('textDocument/definition',
    { textDocument = { uri = uri }, position = { line = use_line, character = use_col + 1 } }, timeout, bufnr)
  local result = resp and resp.result
  local location = result and (result[1] or result)
  local target = location and (location.range or location.targetSelectionRange)
  check('definition of %r1 is its .reg line', target and (location.uri or location.targetUri) == uri
        and target.start.line == decl_line, result or (resp and resp.err) or vim.NIL)

  -- 4. fix `.globl` in the buffer: Neovim sends an incremental didChange; one error is left
  local before = publishes
  vim.api.nvim_buf_set_text(bufnr, globl_line, globl_col, globl_line, globl_col + #'.globl', { '.global' })
  got = vim.wait(timeout, function() return publishes > before and #vim.diagnostic.get(bufnr) == 1 end, 20)
  local left = vim.diagnostic.get(bufnr)
  check('after the edit one diagnostic is left, on the add.s33 line', got and #left == 1 and left[1].lnum == s33_line,
        #left == 1 and { lnum = left[1].lnum, message = left[1].message } or #left)

  -- 5. stop: shutdown + exit; the server exits 0
  client.stop()
  vim.wait(timeout, function() return exited_code ~= nil end, 20)
  check('server exited 0 after shutdown/exit', exited_code == 0, exited_code)

  local failed = 0
  for _, c in ipairs(checks) do if not c.ok then failed = failed + 1 end end
  finish(failed == 0 and 0 or 1, { passed = #checks - failed, failed = failed, checks = checks })
end)
if not ok then finish(2, { error = tostring(err), checks = checks }) end
