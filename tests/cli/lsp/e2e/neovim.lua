-- Neovim headless (0.7 or later): attach dsh-skills lsp to a skill file, wait for the
-- diagnostics, write them to $DSH_LSP_OUT as "<code> <line>" lines, and quit.
local out = io.open(os.getenv("DSH_LSP_OUT"), "w")
local function finish(code)
  out:close()
  vim.cmd(code == 0 and "qa!" or "cq!")
end
local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("DSH_LSP_FILE")))
  local id = vim.lsp.start_client({
    name = "dsh-skills",
    cmd = { os.getenv("DSH_SKILLS_BIN"), "lsp" },
    root_dir = os.getenv("DSH_LSP_ROOT"),
  })
  assert(id, "the client did not start")
  vim.lsp.buf_attach_client(0, id)
  local got = vim.wait(120000, function()
    return #vim.diagnostic.get(0) > 0
  end, 20)
  assert(got, "no diagnostics within the wait")
  for _, d in ipairs(vim.diagnostic.get(0)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
    out:write(code .. " " .. d.lnum .. "\n")
  end
  vim.lsp.stop_client(id)
end)
if not ok then
  out:write("error: " .. tostring(err) .. "\n")
  finish(1)
else
  finish(0)
end
