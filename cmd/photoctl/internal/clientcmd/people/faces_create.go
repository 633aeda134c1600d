package people

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// FacesCreateOptions are what `photoctl faces create` was asked for: the
// face to draw, and the library and person (ids or names) that are looked
// up once connected into Request.
type FacesCreateOptions struct {
	cmdutil.ClientOptions
	cmdutil.InLibrary

	Person  string
	Request api.FaceCreateRequest
}

// NewCmdFacesCreate returns `photoctl faces create`; runF, when not nil,
// gets the parsed options instead of runFacesCreate (tests).
var NewCmdFacesCreate = cmdutil.Constructor(cmdutil.Command[FacesCreateOptions]{
	Name:  "create",
	Usage: "Draw a face on an asset",
	Description: `Draws a face (source manual) on an asset, optionally giving it to a person.
The box is LEFT,TOP,WIDTH,HEIGHT as fractions of the upright image; it must
stay inside the image (else exit 2). --at places it in a video.

Example:
   photoctl faces create --asset asset_01hx... --box 0.42,0.10,0.12,0.18 --person Ann
   photoctl faces create --asset asset_01hv... --box 0.1,0.1,0.2,0.3 --at 4500 --json`,
	Flags: []cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.StringFlag{Name: "asset", Usage: "the asset `ID` (required)"},
		&cli.StringFlag{Name: "box", Usage: "the face's `LEFT,TOP,WIDTH,HEIGHT` as fractions 0..1 (required)"},
		&cli.StringFlag{Name: "person", Usage: "give the face to person `ID or NAME`"},
		&cli.Int64Flag{Name: "at", Usage: "position in a video, in `MILLISECONDS`", Value: -1, DefaultText: "none"},
	},
	JSON: true,
	Parse: func(c *cli.Context, _ []string, opts *FacesCreateOptions) error {
		if c.String("asset") == "" || c.String("box") == "" {
			return cmdutil.UsageErrorf(c, "give --asset and --box")
		}
		box, err := parseBox(c.String("box"))
		if err != nil {
			return cmdutil.UsageErrorf(c, "--box: %v", err)
		}
		opts.Person = c.String("person")
		opts.Request = api.FaceCreateRequest{AssetID: c.String("asset"), BoundingBox: box}
		if at := c.Int64("at"); at >= 0 {
			opts.Request.TimestampMS = &at
		}
		return nil
	},
	Run: runFacesCreate,
})

func runFacesCreate(ctx context.Context, conn *cmdutil.APIConn, opts *FacesCreateOptions) error {
	req := opts.Request
	req.LibraryID = cmdutil.Optional(opts.LibraryID)
	if opts.Person != "" {
		person, err := cmdutil.ResolvePerson(ctx, conn, opts.LibraryID, opts.Person)
		if err != nil {
			return err
		}
		req.PersonID = &person
	}
	f, err := conn.CreateFace(ctx, req)
	if err != nil {
		return err
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, f, "Created face %s on %s (person %s).", f.ID, f.AssetID,
		cmdutil.OrDash(cmdutil.Deref(f.PersonID)))
}

// FacesAssignOptions are what `photoctl faces assign` was asked for: the
// person (an id or a name in Library) and the faces to give them.
type FacesAssignOptions struct {
	cmdutil.ClientOptions

	Library, Person string
	Faces           []string
}

// NewCmdFacesAssign returns `photoctl faces assign`; runF, when not nil,
// gets the parsed options instead of runFacesAssign (tests).
var NewCmdFacesAssign = cmdutil.Constructor(cmdutil.Command[FacesAssignOptions]{
	Name:      "assign",
	Usage:     "Give faces to a person",
	ArgsUsage: "PERSON FACE...",
	Description: `Gives faces (up to 100, of the person's library) to a person; faces already
theirs are left alone.

Example:
   photoctl faces assign Ann face_01hx... face_01hy...`,
	Flags: []cli.Flag{cmdutil.LibraryFlag()},
	JSON:  true,
	Args:  cmdutil.Between(2, -1, "want the person and at least one face id"),
	Parse: func(c *cli.Context, args []string, opts *FacesAssignOptions) error {
		opts.Library, opts.Person, opts.Faces = c.String("library"), args[0], args[1:]
		return nil
	},
	Run: runFacesAssign,
})

func runFacesAssign(ctx context.Context, conn *cmdutil.APIConn, opts *FacesAssignOptions) error {
	person, err := cmdutil.ResolvePerson(ctx, conn, opts.Library, opts.Person)
	if err != nil {
		return err
	}
	p, err := conn.ReassignFaces(ctx, person, opts.Faces)
	if err != nil {
		return err
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, p, "Gave %d face(s) to %s (%s).", len(opts.Faces), p.ID,
		cmdutil.OrDash(cmdutil.Deref(p.Name)))
}

// parseBox reads LEFT,TOP,WIDTH,HEIGHT; the server checks the values.
func parseBox(s string) (*api.BoundingBoxInput, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return nil, fmt.Errorf("want LEFT,TOP,WIDTH,HEIGHT, got %q", s)
	}
	v := make([]float64, 4)
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", p)
		}
		v[i] = f
	}
	return &api.BoundingBoxInput{X: &v[0], Y: &v[1], Width: &v[2], Height: &v[3]}, nil
}
