package main

// The photoctl that people run (`make build`, `make install`) is the
// client build: a static binary without libvips, SQLite or fiber, which
// starts in a few milliseconds. The commands that run or administer the
// server live in photoctl-server, the full build, which links all of
// them; the client build passes those commands to it (commands_client.go).
// `go install ./cmd/photoctl` without the client tag builds one binary
// with everything.

// serverBinaryName is the full build's name beside the client build.
const serverBinaryName = "photoctl-server"

// genDocsCommandName is the hidden command that writes the generated files.
const genDocsCommandName = "__gendocs"

// serverCommandSummary is what the client build's help says of a server
// command: its name, usage and whether the help lists it.
type serverCommandSummary struct {
	name, usage string
	hidden      bool
}

// serverCommandSummaries are the server commands in the order of the full
// build's serverCommands; TestServerCommandSummariesMatchTheCommands keeps
// them equal.
var serverCommandSummaries = []serverCommandSummary{
	{name: "serve", usage: "Run the photo library server"},
	{name: "worker", usage: "Run background tasks (metadata, variants, ...) on a library's data directory"},
	{name: "admin", usage: "Administer the library directly, without the server"},
	{name: "config", usage: "Inspect the configuration"},
	{name: genDocsCommandName, usage: "Write the generated completions and CLI docs below DIR", hidden: true},
	{name: "dev", usage: "Tools for developing photoctl (not for real libraries)", hidden: true},
}
