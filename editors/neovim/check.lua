-- Headless check of uplint server through Neovim's own LSP client (scripts/test-neovim.sh):
-- open a .gitlab-ci.yml with $CI_JOB_JWT_V2 and a GraphQL file with totalWeight, wait for the
-- diagnostics, apply the preferred quick fix (the rename) and the suppression, write both
-- buffers. The script checks the files. Any failure exits Neovim with status 1.

local dir = os.getenv("UPLINT_NVIM_WORKSPACE")
package.path = os.getenv("UPLINT_NVIM_LUA") .. "/?.lua;" .. package.path
local uplint = require("uplint")

local function fail(msg)
  io.stderr:write("test-neovim: " .. msg .. "\n")
  vim.cmd("cquit 1")
end

local function open(name)
  vim.cmd("edit " .. vim.fn.fnameescape(dir .. "/" .. name))
  local bufnr = vim.api.nvim_get_current_buf()
  uplint.attach(bufnr, dir)
  return bufnr
end

local function wait_diagnostics(bufnr, code)
  local found = vim.wait(20000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.source == "uplint" and (d.code == code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code == code)) then
        return true
      end
    end
    return false
  end, 50)
  if not found then
    fail("no " .. code .. " diagnostic in " .. vim.api.nvim_buf_get_name(bufnr))
  end
  local d = vim.diagnostic.get(bufnr)[1]
  print(string.format("diagnostic %s:%d:%d %s", vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ":t"), d.lnum + 1, d.col + 1, d.message))
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
end

local ok, err = pcall(function()
  local gql = open("weight.graphql")
  wait_diagnostics(gql, "graphql-total-weight")
  local title = uplint.apply_preferred(gql)
  if not title then
    fail("no preferred quick fix for totalWeight")
  end
  print("applied: " .. title)
  vim.cmd("write")
  -- The server scans the changed buffer: the diagnostic goes away.
  if not vim.wait(20000, function() return #vim.diagnostic.get(gql) == 0 end, 50) then
    fail("the diagnostic stayed after the fix")
  end

  local ci = open(".gitlab-ci.yml")
  wait_diagnostics(ci, "ci-job-jwt")
  if uplint.apply_preferred(ci) then
    fail("ci-job-jwt has no fix, yet a preferred action was offered")
  end
  title = uplint.apply_titled(ci, "Suppress ci-job-jwt")
  if not title then
    fail("no suppression action for ci-job-jwt")
  end
  print("applied: " .. title)
  vim.cmd("write")
  if not vim.wait(20000, function() return #vim.diagnostic.get(ci) == 0 end, 50) then
    fail("the diagnostic stayed after the suppression")
  end
end)
if not ok then
  fail(tostring(err))
end
vim.lsp.stop_client(vim.lsp.get_active_clients())
vim.wait(2000, function() return #vim.lsp.get_active_clients() == 0 end, 50)
vim.cmd("qall!")
