-- Neovim ships no ftplugin for PTX: comments as ptxas reads them, for `gc` (0.10+), comment
-- plugins and `gq`.
if vim.b.did_ftplugin then
  return
end
vim.b.did_ftplugin = 1
vim.bo.commentstring = '// %s'
vim.bo.comments = 's1:/*,mb:*,ex:*/,://'
vim.b.undo_ftplugin = 'setlocal commentstring< comments<'
