// Package mcp holds `photoctl mcp`: the server's assistant tools
// (server/mcp) served over stdio, each calling the server's API through the
// client package with the user's credentials. It is the one client command
// package that may import server/mcp. As every client command it is an
// Options struct, a NewCmdMCP(f, runF) that parses the command line into
// it, and a runMCP that does the work.
package mcp

import (
	"context"
	"os"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/mcp"
)

// Options are what `photoctl mcp` was asked for: only the connection.
type Options struct {
	cmdutil.ClientOptions
}

// NewCmdMCP returns `photoctl mcp`, the assistant interface over stdio;
// runF, when not nil, gets the parsed options instead of runMCP (tests).
var NewCmdMCP = cmdutil.Constructor(cmdutil.Command[Options]{
	Name:  "mcp",
	Usage: "Serve the library's assistant tools over stdio (Model Context Protocol) for a local assistant",
	Description: `Speaks the Model Context Protocol on standard input and output, so a local
assistant (Claude Desktop, an IDE agent, ...) can search, view and organise
the library. The tools are the same as the server's /api/mcp; each calls the
server's API with your credentials (the profile or --api-key), so it can do
exactly what they allow. Nothing but protocol messages is written to
standard output. A key without write actions gets a tool error from write
tools; use a read-only key to keep an assistant from changing anything.

Example:
   photoctl mcp --server http://127.0.0.1:2283 --api-key apikey_...

   (in an assistant's server configuration:
   {"command": "photoctl", "args": ["mcp", "--api-key", "apikey_..."]})`,
	Run: runMCP,
})

// runMCP serves on the process's own stdin and stdout, not the command's
// streams: the protocol owns them.
func runMCP(ctx context.Context, conn *cmdutil.APIConn, opts *Options) error {
	s := mcp.New(mcpClient{conn.Client}, mcp.Options{Version: api.APIVersion})
	return mcp.ServeStdio(ctx, s, os.Stdin, os.Stdout)
}

// mcpClient is the tools' Backend through the client package: every call
// is an API request with the user's credentials, so the server applies the
// same permissions and rate limits as to any other client.
type mcpClient struct{ c *client.Client }

var _ mcp.Backend = mcpClient{}

// maxPreview bounds a preview image sent to the assistant.
const maxPreview = 8 << 20

func (m mcpClient) Search(ctx context.Context, q mcp.Query, after string, limit int) (*api.Page[api.SearchHit], error) {
	return m.c.SearchPage(ctx, client.SearchQuery{Query: q.Text, LibraryID: q.LibraryID, AlbumID: q.AlbumID,
		PersonIDs: q.PersonIDs, After: q.After, Before: q.Before, Center: q.Center, Radius: q.Radius, BBox: q.BBox,
		MediaType: q.MediaType}, after, limit)
}

func (m mcpClient) Asset(ctx context.Context, id string) (*api.AssetDetail, error) {
	return m.c.AssetDetail(ctx, id)
}

func (m mcpClient) Preview(ctx context.Context, id string) ([]byte, string, error) {
	return m.c.VariantBytes(ctx, id, "preview", maxPreview)
}

func (m mcpClient) Albums(ctx context.Context, libraryID, after string, limit int) (*api.Page[api.Album], error) {
	return m.c.AlbumsPage(ctx, client.AlbumQuery{LibraryID: libraryID}, after, limit)
}

func (m mcpClient) People(ctx context.Context, libraryID, after string, limit int) (*api.Page[api.Person], error) {
	return m.c.PeoplePage(ctx, client.PersonQuery{LibraryID: libraryID}, after, limit)
}

func (m mcpClient) Libraries(ctx context.Context) ([]api.Library, error) {
	return client.Collect(m.c.Libraries(ctx))
}

func (m mcpClient) CreateAlbum(ctx context.Context, libraryID, name string) (*api.Album, bool, error) {
	return m.c.CreateAlbum(ctx, libraryID, name)
}

func (m mcpClient) AddToAlbum(ctx context.Context, albumID string, assetIDs []string) (*api.Album, error) {
	return m.c.AddAlbumAssets(ctx, albumID, assetIDs)
}

func (m mcpClient) RemoveFromAlbum(ctx context.Context, albumID string, assetIDs []string) (*api.Album, error) {
	return m.c.RemoveAlbumAssets(ctx, albumID, assetIDs)
}

func (m mcpClient) BulkUpdate(ctx context.Context, updates []api.AssetUpdate) error {
	return m.c.BulkUpdateAssets(ctx, updates)
}

func (m mcpClient) Trash(ctx context.Context, libraryID string, ids []string) error {
	_, err := m.c.TrashAssets(ctx, libraryID, ids)
	return err
}

func (m mcpClient) Restore(ctx context.Context, libraryID string, ids []string) error {
	_, err := m.c.RestoreAssets(ctx, libraryID, ids)
	return err
}

func (m mcpClient) RenamePerson(ctx context.Context, id, name string) (*api.Person, error) {
	return m.c.UpdatePerson(ctx, id, api.PersonUpdateRequest{Name: api.Optional[string]{Set: true, Value: &name}})
}

func (m mcpClient) MergePeople(ctx context.Context, into string, ids []string) (*api.Person, error) {
	return m.c.MergePeople(ctx, into, ids)
}

func (m mcpClient) Counts(ctx context.Context, q mcp.Query, bucket, after string, limit int) (*api.Page[api.AssetCount], error) {
	return m.c.AssetCounts(ctx, mcpAssetQuery(q), bucket, after, limit)
}

func (m mcpClient) GeoClusters(ctx context.Context, q mcp.Query, cellSize float64) ([]api.GeoCluster, error) {
	return m.c.GeoClusters(ctx, mcpAssetQuery(q), cellSize)
}

func mcpAssetQuery(q mcp.Query) client.AssetQuery {
	return client.AssetQuery{LibraryID: q.LibraryID, After: q.After, Before: q.Before, Center: q.Center,
		Radius: q.Radius, BBox: q.BBox, MediaType: q.MediaType}
}
