// Package tui is the bubbletea terminal browser (`photoctl tui`). It talks
// to the server only through package client.
//
// Model is the whole browser, used by pointer: tabs (timeline by month,
// albums, people, search, trash, tasks, libraries) whose lists are pagers
// that fetch one page at a time as the cursor nears the end; an asset list
// opened from a tab with the detail pane and the thumbnail preview
// (preview.go: half blocks, Kitty or iTerm2); dialogs (dialogs.go) and the
// changes they send (actions.go), a selection going as one bulk request.
// Commands return messages that implement applier, so each result updates
// the model in Update, never from a goroutine.
package tui
