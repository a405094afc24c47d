-- ptxls for Neovim: starts the PTX language server for `ptx` buffers and for the inline PTX of
-- `cuda` buffers (beside clangd, which keeps the C++), one client per project root, and registers
-- the tree-sitter grammar with nvim-treesitter. Neovim 0.7.2 (Debian 12) and later. See
-- clients/nvim/README.md.

local filetype = require('ptxls.filetype')

local M = {}

local uv = vim.uv or vim.loop
local NAME = 'ptxls'
local GRAMMAR_URL = 'https://github.com/ptxls/ptxls'

local defaults = {
  cmd = { 'ptxls' },
  -- The server's settings (config/Settings.cpp): target, rules, diagnostics, format, cuda.
  settings = {},
  root_markers = { '.ptxls.json', '.git' },
  -- `cuda`: Neovim's filetype for .cu/.cuh; the server reads only the PTX in their asm strings.
  filetypes = { 'ptx', 'cuda' },
  on_attach = nil,
  capabilities = nil,
}

-- The options of the last setup() call; nil before the first.
M.options = nil

-- Neovim 0.7 has no vim.lsp.start to find a running client for a root: the ids of the clients
-- this plugin started there, by root folder.
local clients_by_root = {}
-- Clients that :PtxlsRestart stopped. Neovim keeps a client in its list until the server has
-- exited, and vim.lsp.start would attach a buffer to it in the meantime.
local retired = {}

-- Client methods are closures called with a dot up to 0.9 (a colon would pass the client as
-- the first argument); 0.10 accepts both; 0.11 made them methods and deprecates the dot.
local function call(client, method, ...)
  if vim.fn.has('nvim-0.10') == 1 then
    return client[method](client, ...)
  end
  return client[method](...)
end

local function ptxls_clients()
  local all = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  local result = {}
  for _, client in ipairs(all) do
    if client.name == NAME then
      table.insert(result, client)
    end
  end
  return result
end

-- The settings are JSON objects, but vim.json encodes an empty Lua table as `[]`, which the
-- server rejects.
local function as_object(value)
  if type(value) ~= 'table' then
    return value
  end
  if next(value) == nil then
    return vim.empty_dict()
  end
  local copy = {}
  for key, item in pairs(value) do
    copy[key] = as_object(item)
  end
  return copy
end

-- The nearest folder, from the buffer's file up, holding one of the root markers; the file's
-- own folder when none does (a loose file gets a client for its folder).
function M.root_dir(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    return uv.cwd()
  end
  local start = vim.fn.fnamemodify(name, ':p:h')
  local dir = start
  while true do
    for _, marker in ipairs(M.options.root_markers) do
      if uv.fs_stat(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return start
    end
    dir = parent
  end
end

local function client_config(root)
  local options = M.options
  local settings = as_object(options.settings or {})
  return {
    name = NAME,
    cmd = options.cmd,
    root_dir = root,
    init_options = settings,
    -- Neovim answers the server's workspace/configuration request (section "ptxls") by
    -- looking the section up in this table, and resends it on didChangeConfiguration.
    settings = { ptxls = settings },
    -- A capabilities table given to Neovim replaces its defaults; users pass partial ones
    -- (cmp_nvim_lsp.default_capabilities()), as they do with nvim-lspconfig, which merges.
    capabilities = vim.tbl_deep_extend('force', vim.lsp.protocol.make_client_capabilities(),
      options.capabilities or {}),
    on_attach = options.on_attach,
  }
end

local function reusable(client, config)
  return client.name == config.name and client.config.root_dir == config.root_dir
    and not retired[client.id] and not call(client, 'is_stopped')
end

-- Attaches the buffer (default: the current one) to the client of its root, starting the
-- server when the root has none. Returns the client id, or nil.
function M.attach(bufnr)
  assert(M.options, 'ptxls: call require("ptxls").setup() first')
  if bufnr == nil or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  -- Help, terminal and plugin buffers (previews, diffs of other revisions) are not files the
  -- server could resolve `.ptxls.json` for.
  if vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local config = client_config(M.root_dir(bufnr))
  if vim.lsp.start then
    local id
    -- 0.8's vim.lsp.start attaches the current buffer, whatever opts.bufnr says.
    vim.api.nvim_buf_call(bufnr, function()
      id = vim.lsp.start(config, { bufnr = bufnr, reuse_client = reusable })
    end)
    return id
  end
  local id = clients_by_root[config.root_dir]
  local client = id and vim.lsp.get_client_by_id(id)
  if not (client and reusable(client, config)) then
    id = vim.lsp.start_client(config)
    if not id then
      return nil
    end
    clients_by_root[config.root_dir] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

local function served(bufnr)
  return vim.tbl_contains(M.options.filetypes, vim.bo[bufnr].filetype)
end

-- The loaded buffers of the filetypes the server is started for.
local function served_buffers()
  local result = {}
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and served(bufnr) then
      table.insert(result, bufnr)
    end
  end
  return result
end

-- Stops every ptxls client and starts fresh ones (with the current options) for the open
-- `ptx` and `cuda` buffers: after rebuilding the server, or after a second setup() changed the
-- options.
function M.restart()
  for _, client in ipairs(ptxls_clients()) do
    retired[client.id] = true
    call(client, 'stop')
  end
  clients_by_root = {}
  for _, bufnr in ipairs(served_buffers()) do
    M.attach(bufnr)
  end
end

-- What :PtxlsInfo prints, as lines.
function M.info_lines(bufnr)
  if bufnr == nil or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  local lines = {}
  if not M.options then
    return { 'ptxls: setup() has not been called' }
  end
  local cmd = M.options.cmd
  local found = vim.fn.exepath(cmd[1])
  table.insert(lines, string.format('ptxls: cmd %s (%s)', table.concat(cmd, ' '),
    found ~= '' and found or 'NOT FOUND: set cmd in setup{} or put ptxls on PATH'))
  table.insert(lines, 'root markers: ' .. table.concat(M.options.root_markers, ', '))
  table.insert(lines, 'filetypes: ' .. table.concat(M.options.filetypes, ', '))
  table.insert(lines, 'settings: ' .. vim.inspect(M.options.settings, { newline = ' ', indent = '' }))
  local ft = vim.bo[bufnr].filetype
  table.insert(lines, string.format('buffer %d: filetype %s%s', bufnr, ft == '' and '(none)' or ft,
    served(bufnr) and (', root ' .. M.root_dir(bufnr)) or ''))
  local clients = ptxls_clients()
  if #clients == 0 then
    table.insert(lines, 'no ptxls client is running')
  end
  for _, client in ipairs(clients) do
    local state = call(client, 'is_stopped') and 'stopping'
      or (client.initialized and 'running' or 'starting')
    local server = client.server_info
      and ((client.server_info.name or '?') .. ' ' .. (client.server_info.version or '')) or nil
    table.insert(lines, string.format('client %d: %s, root %s%s%s', client.id, state,
      client.config.root_dir or '(none)', server and (', server ' .. vim.trim(server)) or '',
      vim.lsp.buf_is_attached(bufnr, client.id) and ', attached to this buffer' or ''))
  end
  return lines
end

-- nvim-treesitter compiles and installs the parser (`:TSInstall ptx`) once it knows where the
-- grammar lives; the queries come from this plugin's queries/ptx/.
local function register_with_nvim_treesitter()
  local ok, parsers = pcall(require, 'nvim-treesitter.parsers')
  if ok and type(parsers) == 'table' and type(parsers.get_parser_configs) == 'function' then
    -- The `master` branch.
    parsers.get_parser_configs().ptx = {
      install_info = {
        url = GRAMMAR_URL,
        location = 'grammar',
        files = { 'src/parser.c', 'src/scanner.c' },
        branch = 'main',
      },
      filetype = 'ptx',
    }
  end
  -- The `main` branch rebuilds its parser table and fires `User TSUpdate` whenever it reads it.
  vim.api.nvim_create_autocmd('User', {
    group = vim.api.nvim_create_augroup('ptxls_treesitter', { clear = true }),
    pattern = 'TSUpdate',
    callback = function()
      local loaded, registry = pcall(require, 'nvim-treesitter.parsers')
      if loaded and type(registry) == 'table' and registry.get_parser_configs == nil then
        registry.ptx = { install_info = { url = GRAMMAR_URL, location = 'grammar', branch = 'main' } }
      end
    end,
  })
end

function M.setup(options)
  options = options or {}
  local types = { cmd = 'table', settings = 'table', root_markers = 'table', filetypes = 'table',
                  on_attach = 'function', capabilities = 'table' }
  for key, value in pairs(options) do
    if not types[key] then
      local known = vim.tbl_keys(types)
      table.sort(known)
      error(string.format('ptxls.setup: unknown option %q (options: %s)', tostring(key),
        table.concat(known, ', ')), 2)
    elseif type(value) ~= types[key] then
      error(string.format('ptxls.setup: %s must be a %s, not a %s', key, types[key], type(value)), 2)
    end
  end
  M.options = vim.tbl_extend('force', defaults, options)
  filetype.register()

  local group = vim.api.nvim_create_augroup('ptxls', { clear = true })
  if #M.options.filetypes > 0 then
    vim.api.nvim_create_autocmd('FileType', {
      group = group,
      pattern = M.options.filetypes,
      callback = function(args)
        M.attach(args.buf)
      end,
    })
  end
  if vim.fn.has('nvim-0.10') == 1 then
    -- Neovim pulls diagnostics from 0.10 on, and when a client stops (:PtxlsRestart) it
    -- clears only the pushed ones: the stopped server's findings would stay, doubled by the
    -- new server's.
    vim.api.nvim_create_autocmd('LspDetach', {
      group = group,
      callback = function(args)
        local client = vim.lsp.get_client_by_id(args.data.client_id)
        if client and client.name == NAME then
          vim.diagnostic.reset(vim.lsp.diagnostic.get_namespace(client.id, true), args.buf)
        end
      end,
    })
  end
  vim.api.nvim_create_user_command('PtxlsInfo', function()
    print(table.concat(M.info_lines(0), '\n'))
  end, { desc = 'Show the ptxls command, settings and clients' })
  vim.api.nvim_create_user_command('PtxlsRestart', function()
    M.restart()
  end, { desc = 'Restart ptxls for every open PTX and CUDA buffer' })

  register_with_nvim_treesitter()

  -- Buffers opened before setup() ran (a plugin manager loading the plugin late).
  for _, bufnr in ipairs(served_buffers()) do
    M.attach(bufnr)
  end
end

return M
