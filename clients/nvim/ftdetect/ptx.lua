-- Sourced by Neovim's filetype detection at startup when the plugin is on 'runtimepath'.
require('ptxls.filetype').register()
