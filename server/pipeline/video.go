package pipeline

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/ingest/exif"
	"github.com/photoctl/photoctl/ingest/video"
)

// addVideoFacts completes exiftool's reading of a video with ffprobe's:
// ffprobe decodes the stream headers, so its size (after rotation) and
// frame rate win; position, camera, Live Photo id, duration and, failing
// every date tag, the creation time fill what exiftool left empty. A video
// ffprobe cannot read keeps exiftool's reading alone (logged): its poster
// step will fail and say why.
func (p *Pipeline) addVideoFacts(ctx context.Context, path string, md *exif.Metadata) error {
	info, err := video.Probe(ctx, path)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		p.log.WarnContext(ctx, "ffprobe cannot read the video; keeping exiftool's metadata", "path", path, "err", err)
		return nil
	}
	if info.Width > 0 && info.Height > 0 {
		md.Width, md.Height = &info.Width, &info.Height
	}
	if info.FPS > 0 {
		md.FPS = &info.FPS
	}
	if md.Duration == nil && info.Duration > 0 {
		md.Duration = &info.Duration
	}
	if md.Make == nil {
		md.Make = info.Make
	}
	if md.Model == nil {
		md.Model = info.Model
	}
	if md.LivePhotoCID == nil {
		md.LivePhotoCID = info.LivePhotoCID
	}
	var zone *time.Location
	if md.Latitude == nil && info.Latitude != nil && info.Longitude != nil {
		md.Latitude, md.Longitude, md.Altitude = info.Latitude, info.Longitude, info.Altitude
		if zone = exif.ZoneAt(*info.Latitude, *info.Longitude); zone != nil && md.Timezone == nil {
			name := zone.String()
			md.Timezone = &name
		}
	} else if md.Latitude != nil && md.Longitude != nil {
		zone = exif.ZoneAt(*md.Latitude, *md.Longitude)
	}
	if md.Capture == nil && info.CreationTime != nil {
		md.Capture = creationCapture(*info.CreationTime, zone)
	}
	return nil
}

// creationCapture places ffprobe's creation time, an instant: in the zone
// of the video's position when known, else at the offset it was written
// with (Apple's creation date keeps the camera's; a plain creation_time
// is UTC by specification, so it stays in UTC, "Z"), as ingest/exif reads
// QuickTime dates.
func creationCapture(t time.Time, zone *time.Location) *exif.Capture {
	c := &exif.Capture{Source: "creation_time", OffsetSource: "creation_time"}
	if zone != nil {
		t = t.In(zone)
		c.OffsetSource = exif.GPSDerivedOffset
	}
	_, off := t.Zone()
	c.Offset = &off
	c.Wall = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	return c
}
