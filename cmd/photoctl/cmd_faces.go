package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// newFacesCommand returns `photoctl faces`.
func newFacesCommand() *cli.Command {
	return &cli.Command{
		Name:  "faces",
		Usage: "List, draw, assign and delete faces",
		Description: `A face is a box on an asset, found by the face model (source machine) or
drawn by hand (manual), and given to a person or to nobody yet. Boxes are
fractions (0..1) of the upright image: left, top, width, height.

Example:
   photoctl faces list --asset asset_01hx...
   photoctl faces create --asset asset_01hx... --box 0.42,0.10,0.12,0.18 --person Ann
   photoctl faces assign Ann face_01hx... face_01hy...`,
		Subcommands: []*cli.Command{newFacesListCommand(), newFacesCreateCommand(), newFacesAssignCommand(),
			newFacesDeleteCommand()},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

func newFacesListCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "List faces by asset or person, newest first",
		Description: `Lists the faces of an asset, of a person, or of the whole library; faces on
trashed assets included. With --json the output is a JSON array of the
API's Face records.

Example:
   photoctl faces list --person Ann
   photoctl faces list --asset asset_01hx... --json | jq '.[].bounding_box'`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(),
			&cli.StringFlag{Name: "asset", Usage: "only the faces on asset `ID`"},
			&cli.StringFlag{Name: "person", Usage: "only the faces of person `ID or NAME`"},
			&cli.StringSliceFlag{Name: "id", Usage: "only these face `ID`s (repeat or comma-separate; at most 100)"},
			cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(0, 0, "", func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
			lib, err := cmdutil.ResolveLibrary(c.Context, conn, c.String("library"))
			if err != nil {
				return err
			}
			q := client.FaceQuery{LibraryID: lib, AssetID: c.String("asset"), IDs: cmdutil.SplitList(c.StringSlice("id"))}
			if c.String("person") != "" {
				if q.PersonID, err = resolvePerson(c, conn, c.String("person")); err != nil {
					return err
				}
			}
			faces, err := client.Collect(conn.Faces(c.Context, q))
			if err != nil {
				return err
			}
			return cmdutil.PrintList(cmdutil.NewStreams(c), c.Bool("json"), faces, []string{"ID", "ASSET", "PERSON", "SOURCE", "BOX", "CONFIDENCE"},
				func(f api.Face) []string {
					conf := "-"
					if f.Confidence != nil {
						conf = strconv.FormatFloat(*f.Confidence, 'f', 2, 64)
					}
					b := f.BoundingBox
					return []string{f.ID, f.AssetID, cmdutil.OrDash(cmdutil.Deref(f.PersonID)), f.Source,
						fmt.Sprintf("%.3f,%.3f,%.3f,%.3f", b.X, b.Y, b.Width, b.Height), conf}
				})
		}),
	}
}

func newFacesCreateCommand() *cli.Command {
	return &cli.Command{
		Name:  "create",
		Usage: "Draw a face on an asset",
		Description: `Draws a face (source manual) on an asset, optionally giving it to a person.
The box is LEFT,TOP,WIDTH,HEIGHT as fractions of the upright image; it must
stay inside the image (else exit 2). --at places it in a video.

Example:
   photoctl faces create --asset asset_01hx... --box 0.42,0.10,0.12,0.18 --person Ann
   photoctl faces create --asset asset_01hv... --box 0.1,0.1,0.2,0.3 --at 4500 --json`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(),
			&cli.StringFlag{Name: "asset", Usage: "the asset `ID` (required)"},
			&cli.StringFlag{Name: "box", Usage: "the face's `LEFT,TOP,WIDTH,HEIGHT` as fractions 0..1 (required)"},
			&cli.StringFlag{Name: "person", Usage: "give the face to person `ID or NAME`"},
			&cli.Int64Flag{Name: "at", Usage: "position in a video, in `MILLISECONDS`", Value: -1, DefaultText: "none"},
			cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(0, 0, "",
			func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
				if c.String("asset") == "" || c.String("box") == "" {
					return cmdutil.UsageErrorf(c, "give --asset and --box")
				}
				box, err := parseBox(c.String("box"))
				if err != nil {
					return cmdutil.UsageErrorf(c, "--box: %v", err)
				}
				lib, err := cmdutil.ResolveLibrary(c.Context, conn, c.String("library"))
				if err != nil {
					return err
				}
				req := api.FaceCreateRequest{AssetID: c.String("asset"), BoundingBox: box, LibraryID: optional(lib)}
				if c.String("person") != "" {
					person, err := resolvePerson(c, conn, c.String("person"))
					if err != nil {
						return err
					}
					req.PersonID = &person
				}
				if at := c.Int64("at"); at >= 0 {
					req.TimestampMS = &at
				}
				f, err := conn.CreateFace(c.Context, req)
				if err != nil {
					return err
				}
				return cmdutil.PrintDone(cmdutil.NewStreams(c), c.Bool("json"), f, "Created face %s on %s (person %s).", f.ID, f.AssetID,
					cmdutil.OrDash(cmdutil.Deref(f.PersonID)))
			}),
	}
}

func newFacesAssignCommand() *cli.Command {
	return &cli.Command{
		Name:      "assign",
		Usage:     "Give faces to a person",
		ArgsUsage: "PERSON FACE...",
		Description: `Gives faces (up to 100, of the person's library) to a person; faces already
theirs are left alone.

Example:
   photoctl faces assign Ann face_01hx... face_01hy...`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(2, -1, "want the person and at least one face id",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				person, err := resolvePerson(c, conn, args[0])
				if err != nil {
					return err
				}
				p, err := conn.ReassignFaces(c.Context, person, args[1:])
				if err != nil {
					return err
				}
				return cmdutil.PrintDone(cmdutil.NewStreams(c), c.Bool("json"), p, "Gave %d face(s) to %s (%s).", len(args)-1, p.ID,
					cmdutil.OrDash(cmdutil.Deref(p.Name)))
			}),
	}
}

func newFacesDeleteCommand() *cli.Command {
	return &cli.Command{
		Name:      "delete",
		Usage:     "Delete faces",
		ArgsUsage: "FACE...",
		Description: `Deletes faces; their assets and people stay.

Example:
   photoctl faces delete face_01hx...`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, -1, "give at least one face id",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				return cmdutil.ActOnEach(cmdutil.NewStreams(c), c.Bool("json"), args, "Deleted", "deleted", "face", func(id string) (string, error) {
					return id, conn.DeleteFace(c.Context, id)
				})
			}),
	}
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
