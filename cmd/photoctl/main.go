// Command photoctl is the photoctl server and its command-line tools in one
// binary: `photoctl serve` runs the server, the other commands administer it.
package main

import (
	"context"
	"os"
)

func main() {
	os.Exit(execute(context.Background(), newApp(newFactory()), os.Args))
}
