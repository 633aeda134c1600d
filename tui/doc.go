// Package tui is the bubbletea terminal browser (`photoctl tui`). It talks
// to the server only through package client.
//
// Status: created with the foundation so the layout holds; the browser
// arrives with the TUI issue (#11).
package tui
