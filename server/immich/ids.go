package immich

import (
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
)

// kinds names the resource of each id prefix in validation messages.
var kinds = map[string]string{catalog.PrefixAsset: "an asset", catalog.PrefixAlbum: "an album",
	catalog.PrefixTag: "a tag"}

// CheckID validates an id that must name a resource of kind prefix, where
// Immich's DTOs require a UUID: an empty or malformed id is a validation
// error (Immich's 400) at loc, before anything is looked up.
func CheckID(prefix, id string, loc ...any) error {
	if catalog.HasPrefix(id, prefix) {
		return nil
	}
	return catalog.InvalidField("uuid", "must be "+kinds[prefix]+" id ("+strings.TrimSuffix(prefix, "_")+
		"_ followed by 26 characters)", id, loc...)
}

// CheckIDs validates a list of ids of kind prefix at loc (each id at its
// index). An empty list is valid, as in Immich.
func CheckIDs(prefix string, ids []string, loc ...any) error {
	for i, id := range ids {
		if err := CheckID(prefix, id, append(loc[:len(loc):len(loc)], i)...); err != nil {
			return err
		}
	}
	return nil
}
