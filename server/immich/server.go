package immich

import (
	"fmt"

	"github.com/photoctl/photoctl/ingest/sniff"
)

// ServerVersion is the Immich server version the layer answers as: the
// release whose API the target clients (@immich/cli 3.2.2, immich-go
// v0.31.0) were observed against.
var ServerVersion = Version{Major: 2, Minor: 5, Patch: 0}

// AboutServer is GET /api/server/about.
func AboutServer() About {
	v := fmt.Sprintf("v%d.%d.%d", ServerVersion.Major, ServerVersion.Minor, ServerVersion.Patch)
	return About{Version: v, VersionURL: "https://github.com/immich-app/immich/releases/tag/" + v,
		Build: "photoctl"}
}

// SupportedMediaTypes lists the extensions photoctl ingests, with their
// leading dots, and XMP sidecars.
func SupportedMediaTypes() MediaTypes {
	images, videos := sniff.MediaTypes()
	return MediaTypes{Image: images, Video: videos, Sidecar: []string{".xmp"}}
}
