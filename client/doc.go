// Package client is the Go client of the photoctl API, built on resty. The
// CLI subcommands and the TUI talk to the server only through it; it imports
// the wire types of server/api and nothing else of the server.
//
// Status: the package is created with the foundation so the layout holds;
// its resources arrive with the CLI issue (#7).
package client
