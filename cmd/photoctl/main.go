// Command photoctl is the photoctl server and its command-line tools in one
// binary: `photoctl serve` runs the server, the other commands administer it.
package main

import (
	"context"
	"io"
	"log"
	"os"
)

func main() {
	// net/http writes its own diagnostics ("Unsolicited response received
	// on idle HTTP channel", ...) through the standard logger, into a
	// command's output. photoctl reports what goes wrong itself, and the
	// server logs through its own slog handler: the standard logger says
	// nothing.
	log.SetOutput(io.Discard)
	os.Exit(execute(context.Background(), newApp(newFactory()), os.Args))
}
