-- The language server in Neovim's own LSP client (0.7+: vim.lsp.start_client), as docs/editors.md sets it
-- up: run headless by test/integration/editors/neovim.test.ts. It opens the plan files, waits for their
-- diagnostics (polling with a timeout, vim.wait), asks for a hover, a completion and the code actions at
-- the given places, writes everything as JSON to DLMM_NVIM_OUT and quits. Every input comes from the
-- environment (JSON): DLMM_NVIM_CMD the server command, DLMM_NVIM_FILES the plan files, DLMM_NVIM_SETTINGS
-- the `settings` table, DLMM_NVIM_PROBES the requests, DLMM_NVIM_TIMEOUT_MS the longest wait.
local function env_json(name)
  local text = os.getenv(name)
  if text == nil or text == '' then
    error(name .. ' is not set')
  end
  return vim.json.decode(text)
end

local out_path = os.getenv('DLMM_NVIM_OUT')
local result = { errors = {}, files = {} }

local function finish()
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.json.encode(result))
  f:close()
  vim.cmd('qall!')
end

local ok, err = pcall(function()
  local cmd = env_json('DLMM_NVIM_CMD')
  local files = env_json('DLMM_NVIM_FILES')
  local settings = env_json('DLMM_NVIM_SETTINGS')
  local probes = env_json('DLMM_NVIM_PROBES')
  local timeout = tonumber(os.getenv('DLMM_NVIM_TIMEOUT_MS') or '20000')
  result.nvim = vim.version()

  -- What the server published, as sent (raw LSP diagnostics), and which publishes were its live analyses.
  local published = {}
  local settled = {}
  local default_publish = vim.lsp.handlers['textDocument/publishDiagnostics']
  local client_id = vim.lsp.start_client({
    name = 'dlmm',
    cmd = cmd,
    root_dir = vim.fn.getcwd(),
    -- Neovim 0.7 neither offers workspace/configuration nor pushes `settings` by itself: on_init pushes
    -- them (workspace/didChangeConfiguration), as docs/editors.md says and nvim-lspconfig does.
    -- analysisEvents: the server says which publish was live.
    settings = settings,
    init_options = { analysisEvents = true },
    on_init = function(client)
      if next(client.config.settings) ~= nil then
        client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
      end
    end,
    handlers = {
      ['textDocument/publishDiagnostics'] = function(e, params, ctx, config)
        published[params.uri] = params.diagnostics
        return default_publish(e, params, ctx, config)
      end,
      ['dlmm/analysis'] = function(_, params)
        if params.live then
          settled[params.uri] = published[params.uri]
        end
      end,
    },
    on_exit = function(code)
      table.insert(result.errors, 'the server exited with ' .. tostring(code))
    end,
  })
  if client_id == nil then
    error('vim.lsp.start_client did not start the server')
  end

  local buffers = {}
  for _, path in ipairs(files) do
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
    local bufnr = vim.api.nvim_get_current_buf()
    vim.lsp.buf_attach_client(bufnr, client_id)
    buffers[path] = bufnr
  end

  -- Live expected: every file's live publish. No service: every file's first publish (the only one).
  local want_live = os.getenv('DLMM_NVIM_EXPECT') == 'live'
  local function ready()
    for path, bufnr in pairs(buffers) do
      local uri = vim.uri_from_bufnr(bufnr)
      if want_live and settled[uri] == nil then
        return false
      end
      if not want_live and published[uri] == nil then
        return false
      end
    end
    return true
  end
  if not vim.wait(timeout, ready, 20) then
    local seen = {}
    for uri, diagnostics in pairs(published) do
      local codes = {}
      for _, d in ipairs(diagnostics) do
        table.insert(codes, tostring(d.code))
      end
      table.insert(seen, uri .. ': ' .. table.concat(codes, ','))
    end
    table.insert(result.errors, 'diagnostics did not arrive within ' .. timeout .. ' ms; published: ' .. table.concat(seen, '; '))
  end

  for path, bufnr in pairs(buffers) do
    local uri = vim.uri_from_bufnr(bufnr)
    result.files[path] = {
      uri = uri,
      diagnostics = (want_live and settled[uri]) or published[uri] or vim.NIL,
      -- What Neovim itself shows for the buffer (vim.diagnostic), beside what the server sent.
      shown = #vim.diagnostic.get(bufnr),
    }
  end

  local function request(path, method, params)
    local bufnr = buffers[path]
    params.textDocument = { uri = vim.uri_from_bufnr(bufnr) }
    local answers, request_err = vim.lsp.buf_request_sync(bufnr, method, params, timeout)
    if answers == nil then
      return { error = tostring(request_err) }
    end
    local answer = answers[client_id]
    if answer == nil then
      return { error = 'no answer' }
    end
    if answer.err then
      return { error = answer.err.message or vim.inspect(answer.err) }
    end
    return { result = answer.result == nil and vim.NIL or answer.result }
  end

  result.probes = {}
  for _, probe in ipairs(probes) do
    local params = { position = probe.position }
    if probe.method == 'textDocument/codeAction' then
      -- The diagnostics Neovim holds for that range, as `:lua vim.lsp.buf.code_action()` would send them.
      local uri = vim.uri_from_bufnr(buffers[probe.file])
      local here = {}
      for _, d in ipairs((want_live and settled[uri]) or published[uri] or {}) do
        if d.range.start.line == probe.position.line then
          table.insert(here, d)
        end
      end
      params = {
        range = { start = probe.position, ['end'] = probe.position },
        context = { diagnostics = here },
      }
    end
    table.insert(result.probes, { method = probe.method, file = probe.file, answer = request(probe.file, probe.method, params) })
  end

  vim.lsp.stop_client(client_id)
end)

if not ok then
  table.insert(result.errors, tostring(err))
end
finish()
