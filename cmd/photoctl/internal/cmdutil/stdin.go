package cmdutil

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// ReadStdinIDs reads ids from in (standard input): one a line or separated
// by spaces, or the JSON array a --json listing prints (objects with an
// "id", or strings), so `photoctl ls --json | photoctl trash -` works
// without jq.
func ReadStdinIDs(in io.Reader) ([]string, error) {
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, fmt.Errorf("read ids from stdin: %w", err)
	}
	if text := bytes.TrimSpace(data); len(text) > 0 && text[0] == '[' {
		return idsFromJSON(text)
	}
	return strings.Fields(string(data)), nil
}

// idsFromJSON reads a JSON array of ids, or of objects with an "id".
func idsFromJSON(text []byte) ([]string, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(text, &items); err != nil {
		return nil, &UsageError{Err: fmt.Errorf("read ids from stdin: not a JSON array: %w", err)}
	}
	ids := make([]string, 0, len(items))
	for i, raw := range items {
		var id string
		if json.Unmarshal(raw, &id) != nil {
			var obj struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(raw, &obj) != nil || obj.ID == "" {
				return nil, &UsageError{Err: fmt.Errorf("read ids from stdin: item %d has no \"id\"", i)}
			}
			id = obj.ID
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// IDArgs are ids given as arguments or, when the only argument is "-",
// to be read from standard input. The reading waits for IDs, so a
// command reads its input where it always did: after connecting and
// looking up what the ids go to.
type IDArgs struct {
	// Args are the arguments as given: the ids, or "-".
	Args []string
	in   io.Reader
	help string
}

// NewIDArgs returns the ids of args for c's command, read from in (its
// standard input) when args is "-".
func NewIDArgs(c *cli.Context, in io.Reader, args []string) IDArgs {
	return IDArgs{Args: args, in: in, help: c.Command.HelpName}
}

// IDs returns the ids: the arguments, or what standard input holds (none
// there is a usage error).
func (a IDArgs) IDs() ([]string, error) {
	if len(a.Args) != 1 || a.Args[0] != "-" {
		return a.Args, nil
	}
	ids, err := ReadStdinIDs(a.in)
	if err == nil && len(ids) == 0 {
		err = &UsageError{Err: errors.New("nothing on standard input"), Help: a.help}
	}
	return ids, err
}

// Confirm asks question on the error stream and reads a yes or no from in;
// anything but y or yes, end of input included, is a no.
func Confirm(in io.Reader, s *Streams, question string) (bool, error) {
	fmt.Fprint(s.Err, question)
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(s.Err)
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	default:
		return false, nil
	}
}
