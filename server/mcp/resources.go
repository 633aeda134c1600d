package mcp

import (
	"context"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/photoctl/photoctl/server/catalog"
)

// resource is a readable listing: the first page of the caller's default
// library's albums or people, for assistants that attach context rather
// than call tools.
type resource struct {
	uri, name, desc string
	action          catalog.Action
	read            func(ctx context.Context, b Backend) (any, error)
}

var resourceTable = []resource{
	{uri: "photoctl://albums", name: "albums", action: catalog.ActionAlbumRead,
		desc: "The newest 50 albums of the default library (list_albums pages further)",
		read: func(ctx context.Context, b Backend) (any, error) {
			return listAlbums(ctx, b, LibraryPageInput{Paging: Paging{Limit: maxToolPage}})
		}},
	{uri: "photoctl://people", name: "people", action: catalog.ActionPersonRead,
		desc: "The newest 50 people of the default library (list_people pages further)",
		read: func(ctx context.Context, b Backend) (any, error) {
			return listPeople(ctx, b, LibraryPageInput{Paging: Paging{Limit: maxToolPage}})
		}},
}

func addResources(s *sdk.Server, b Backend) {
	for _, r := range resourceTable {
		s.AddResource(&sdk.Resource{URI: r.uri, Name: r.name, Description: r.desc, MIMEType: "application/json"},
			func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
				v, err := r.read(ctx, b)
				if err != nil {
					return nil, err
				}
				data, err := json.Marshal(v)
				if err != nil {
					return nil, err
				}
				return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{
					{URI: r.uri, MIMEType: "application/json", Text: string(data)}}}, nil
			})
	}
}

func lookupResource(uri string) (resource, bool) {
	for _, r := range resourceTable {
		if r.uri == uri {
			return r, true
		}
	}
	return resource{}, false
}
