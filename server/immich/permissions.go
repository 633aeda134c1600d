package immich

import (
	"slices"

	"github.com/photoctl/photoctl/server/catalog"
)

// PermissionAll is Immich's permission that grants every other one.
const PermissionAll = "all"

// ServerAbout is granted to every credential: the layer's server routes
// need no action.
const ServerAbout = "server.about"

// grants maps each API key action onto the Immich permissions it covers.
// Actions without an Immich counterpart (search, event.read, task.read)
// grant none.
var grants = map[catalog.Action][]string{
	catalog.ActionAssetRead:   {"asset.read", "asset.view", "asset.download", "asset.statistics", "tag.read"},
	catalog.ActionAssetUpload: {"asset.upload"},
	catalog.ActionAssetUpdate: {"asset.update", "asset.copy", "tag.create", "tag.update", "tag.asset"},
	catalog.ActionAssetTrash:  {"asset.delete"},
	catalog.ActionAssetDelete: {"asset.delete"},
	catalog.ActionAlbumRead:   {"album.read", "album.statistics", "album.download"},
	catalog.ActionAlbumWrite:  {"album.create", "album.update", "album.delete", "albumAsset.create", "albumAsset.delete"},
	catalog.ActionPersonRead:  {"person.read", "person.statistics"},
	catalog.ActionPersonWrite: {"person.create", "person.update", "person.delete", "person.merge", "person.reassign"},
	catalog.ActionStackRead:   {"stack.read"},
	catalog.ActionStackWrite:  {"stack.create", "stack.update", "stack.delete"},
	catalog.ActionLibraryRead: {"library.read", "library.statistics"},
	catalog.ActionUserRead:    {"user.read"},
	catalog.ActionUserUpdate:  {"user.update"},
}

// Permissions lists the Immich permissions of a credential: ["all"] when
// it may do everything (a session, or an API key granted "all"), else the
// ones its actions grant plus server.about, sorted.
func Permissions(p *catalog.Principal) []string {
	if p.Scope == nil || slices.Contains(p.Scope.Actions, catalog.ActionAll) {
		return []string{PermissionAll}
	}
	out := []string{ServerAbout}
	for _, a := range p.Scope.Actions {
		out = append(out, grants[a]...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Permission returns the Immich permission a route needing action a names
// in its 403, or "" for actions without one.
func Permission(a catalog.Action) string {
	if g := grants[a]; len(g) > 0 {
		if a == catalog.ActionAlbumWrite {
			return "albumAsset.create"
		}
		return g[0]
	}
	return ""
}
