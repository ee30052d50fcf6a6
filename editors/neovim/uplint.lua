-- uplint server in Neovim, with the client built into Neovim (no plugin).
--
-- Neovim 0.8 and later: put this in your init.lua (or source it):
--
--   vim.api.nvim_create_autocmd("FileType", {
--     pattern = { "yaml", "graphql", "sh", "toml", "ruby", "python", "go", "javascript", "typescript" },
--     callback = function(args)
--       vim.lsp.start({
--         name = "uplint",
--         cmd = { "uplint", "server" },
--         root_dir = vim.fs.dirname(vim.fs.find({ ".uplint.yml", ".git" }, { upward = true })[1]),
--       }, { bufnr = args.buf })
--     end,
--   })
--
-- Neovim 0.7 (Debian 12's) has no vim.lsp.start: `M.attach(bufnr)` below starts one client
-- with vim.lsp.start_client and attaches buffers to it, which works in 0.7 and later.

local M = {}

local client_id = nil

--- Start uplint server once (UPLINT_BIN, else `uplint` on PATH) and attach the buffer.
function M.attach(bufnr, root)
  if client_id == nil then
    client_id = vim.lsp.start_client({
      name = "uplint",
      cmd = { os.getenv("UPLINT_BIN") or "uplint", "server" },
      root_dir = root or vim.fn.getcwd(),
    })
  end
  assert(client_id, "uplint server did not start")
  vim.lsp.buf_attach_client(bufnr or 0, client_id)
  return client_id
end

--- The code actions of uplint at the cursor, asked through Neovim's client with the
--- diagnostics of the cursor's line (as `vim.lsp.buf.code_action()` asks).
function M.code_actions(bufnr)
  local line = vim.api.nvim_win_get_cursor(0)[1] - 1
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bufnr, line) }
  local answers = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, 10000) or {}
  local actions = {}
  for _, answer in pairs(answers) do
    for _, a in ipairs(answer.result or {}) do
      table.insert(actions, a)
    end
  end
  return actions
end

--- Apply the preferred quick fix at the cursor line (what `vim.lsp.buf.code_action({ apply =
--- true, filter = ... })` does in 0.8+): returns its title, or nil when there is none.
function M.apply_preferred(bufnr)
  for _, a in ipairs(M.code_actions(bufnr)) do
    if a.isPreferred and a.edit then
      vim.lsp.util.apply_workspace_edit(a.edit, "utf-16")
      return a.title
    end
  end
  return nil
end

--- Apply the first action whose title starts with `prefix`.
function M.apply_titled(bufnr, prefix)
  for _, a in ipairs(M.code_actions(bufnr)) do
    if a.edit and vim.startswith(a.title, prefix) then
      vim.lsp.util.apply_workspace_edit(a.edit, "utf-16")
      return a.title
    end
  end
  return nil
end

return M
