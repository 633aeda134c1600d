package convert

import (
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/immich"
)

// ImmichTags are a library's tags as the Immich layer answers them.
func ImmichTags(list []catalog.Tag) []immich.Tag {
	out := make([]immich.Tag, len(list))
	for i := range list {
		out[i] = immich.ToTag(&list[i])
	}
	return out
}
