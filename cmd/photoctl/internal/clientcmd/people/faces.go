package people

import (
	"context"
	"fmt"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// NewCmdFaces returns `photoctl faces`, a group: its subcommands are
// tested one by one, each with its own runF.
func NewCmdFaces(f *cmdutil.Factory) *cli.Command {
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
		Subcommands: []*cli.Command{NewCmdFacesList(f, nil), NewCmdFacesCreate(f, nil), NewCmdFacesAssign(f, nil),
			NewCmdFacesDelete(f, nil)},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// FacesListOptions are what `photoctl faces list` was asked for.
type FacesListOptions struct {
	cmdutil.ClientOptions
	cmdutil.InLibrary

	// Person is a person's id or name in the library, looked up once
	// connected into Query.
	Person string
	Query  client.FaceQuery
}

// NewCmdFacesList returns `photoctl faces list`; runF, when not nil, gets
// the parsed options instead of runFacesList (tests).
var NewCmdFacesList = cmdutil.Constructor(cmdutil.Command[FacesListOptions]{
	Name:  "list",
	Usage: "List faces by asset or person, newest first",
	Description: `Lists the faces of an asset, of a person, or of the whole library; faces on
trashed assets included. With --json the output is a JSON array of the
API's Face records.

Example:
   photoctl faces list --person Ann
   photoctl faces list --asset asset_01hx... --json | jq '.[].bounding_box'`,
	Flags: []cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.StringFlag{Name: "asset", Usage: "only the faces on asset `ID`"},
		&cli.StringFlag{Name: "person", Usage: "only the faces of person `ID or NAME`"},
		&cli.StringSliceFlag{Name: "id", Usage: "only these face `ID`s (repeat or comma-separate; at most 100)"},
	},
	JSON: true,
	Parse: func(c *cli.Context, _ []string, opts *FacesListOptions) error {
		opts.Person = c.String("person")
		opts.Query = client.FaceQuery{AssetID: c.String("asset"), IDs: cmdutil.SplitList(c.StringSlice("id"))}
		return nil
	},
	Run: runFacesList,
})

func runFacesList(ctx context.Context, conn *cmdutil.APIConn, opts *FacesListOptions) error {
	q := opts.Query
	q.LibraryID = opts.LibraryID
	if opts.Person != "" {
		var err error
		if q.PersonID, err = cmdutil.ResolvePerson(ctx, conn, opts.LibraryID, opts.Person); err != nil {
			return err
		}
	}
	return cmdutil.PrintAll(opts.IO, opts.JSON, conn.Faces(ctx, q),
		[]string{"ID", "ASSET", "PERSON", "SOURCE", "BOX", "CONFIDENCE"},
		func(f api.Face) []string {
			conf := "-"
			if f.Confidence != nil {
				conf = strconv.FormatFloat(*f.Confidence, 'f', 2, 64)
			}
			b := f.BoundingBox
			return []string{f.ID, f.AssetID, cmdutil.OrDash(cmdutil.Deref(f.PersonID)), f.Source,
				fmt.Sprintf("%.3f,%.3f,%.3f,%.3f", b.X, b.Y, b.Width, b.Height), conf}
		})
}

// FacesDeleteOptions are what `photoctl faces delete` was asked for: the
// ids of the faces to delete.
type FacesDeleteOptions struct{ cmdutil.EachOptions }

// NewCmdFacesDelete returns `photoctl faces delete`; runF, when not nil,
// gets the parsed options instead of runFacesDelete (tests).
var NewCmdFacesDelete = cmdutil.Constructor(cmdutil.Command[FacesDeleteOptions]{
	Name:      "delete",
	Usage:     "Delete faces",
	ArgsUsage: "FACE...",
	Description: `Deletes faces; their assets and people stay.

Example:
   photoctl faces delete face_01hx...`,
	JSON: true,
	Args: cmdutil.AtLeastOne("give at least one face id"),
	Run:  runFacesDelete,
})

func runFacesDelete(ctx context.Context, conn *cmdutil.APIConn, opts *FacesDeleteOptions) error {
	return opts.ForEach("Deleted", "deleted", "face", func(id string) (string, error) {
		return id, conn.DeleteFace(ctx, id)
	})
}
