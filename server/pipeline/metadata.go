package pipeline

import (
	"context"
	"errors"
	"fmt"

	"github.com/photoctl/photoctl/ingest/exif"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
)

// Metadata reads the original (and the XMP sidecar uploaded with it) and
// writes the file metadata layer with the columns derived from it: capture
// time, offset and instant, width and height (displayed, after orientation
// or rotation), and, through the merged view, position and rating. Images
// are read with exiftool; videos with exiftool and ffprobe, which fills
// what exiftool does not know (Matroska and WebM dimensions, frame rate,
// position, creation time).
//
// The capture time follows the rule of ingest/exif (DateTimeOriginal with
// its offset, else CreateDate, the offset derived from the GPS time zone
// when none is recorded); without one the upload's file_created_at stays.
// A capture time the user set is kept. A file exiftool cannot read at all
// gets an empty layer rather than a failure, so its renderings are still
// made. Idempotent: a re-run over the same file writes nothing.
func (p *Pipeline) Metadata(ctx context.Context, assetID string) error {
	return p.settle(ctx, assetID, p.metadata(ctx, assetID))
}

func (p *Pipeline) metadata(ctx context.Context, id string) error {
	a, err := p.asset(ctx, id)
	if err != nil {
		return err
	}
	orig, err := p.d.Blobs.OpenLocal(catalog.OriginalKey(id))
	if err != nil {
		return err
	}
	defer orig.Close()
	sidecar, err := p.sidecar(id)
	if err != nil {
		return err
	}
	if sidecar != nil {
		defer sidecar.Close()
	}
	md, err := p.readMetadata(ctx, orig.Path, sidecar)
	if err != nil {
		return err
	}
	if a.MediaType == catalog.MediaVideo {
		if err := p.addVideoFacts(ctx, orig.Path, md); err != nil {
			return err
		}
	}
	layer := fileLayer(md)
	return p.update(ctx, id, "metadata", func(a *catalog.Asset) {
		capture := fileCapture(md, a)
		if layer.OriginalDatetime == nil {
			// original_datetime shows the capture time chosen, whichever
			// tag (or the upload's file_created_at) it came from, so that
			// clearing a user's edit of it brings this one back.
			text := capture.String()
			layer.OriginalDatetime = &text
		}
		a.FileMeta = layer
		if a.UserMeta.OriginalDatetime == nil {
			a.Capture = capture
		}
		if md.Width != nil && md.Height != nil {
			a.Width, a.Height = md.Width, md.Height
		}
	})
}

// readMetadata runs exiftool over the original and sidecar. A sidecar
// exiftool cannot read is left out rather than failing the step; an
// original it cannot read gives empty metadata.
func (p *Pipeline) readMetadata(ctx context.Context, path string, sidecar *blob.Local) (*exif.Metadata, error) {
	side := ""
	if sidecar != nil {
		side = sidecar.Path
	}
	md, err := p.d.Metadata.Read(ctx, path, side)
	if errors.Is(err, exif.ErrUnreadable) && side != "" {
		p.log.WarnContext(ctx, "xmp sidecar unreadable; reading the file alone", "path", path, "err", err)
		md, err = p.d.Metadata.Read(ctx, path, "")
	}
	if errors.Is(err, exif.ErrUnreadable) {
		p.log.WarnContext(ctx, "metadata unreadable; the asset keeps its upload facts", "path", path, "err", err)
		return &exif.Metadata{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read metadata: %w", err)
	}
	return md, nil
}

// sidecar opens the XMP sidecar stored with the asset, or returns nil.
func (p *Pipeline) sidecar(id string) (*blob.Local, error) {
	f, err := p.d.Blobs.OpenLocal(assets.SidecarKey(id))
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, nil
	}
	return f, err
}

// fileCapture is the capture time from the file, else the one the file
// layer recorded on an earlier run, else the upload's (a.Capture, unless a
// user's edit replaced it; then file_created_at).
func fileCapture(md *exif.Metadata, a *catalog.Asset) catalog.CaptureTime {
	if c := md.Capture; c != nil {
		return catalog.CaptureTime{Wall: c.Wall, Offset: c.Offset}
	}
	if s := a.FileMeta.OriginalDatetime; s != nil {
		if c, err := catalog.ParseCaptureTime(*s); err == nil {
			return c
		}
	}
	if a.UserMeta.OriginalDatetime == nil {
		return a.Capture
	}
	zero := 0
	return catalog.CaptureTime{Wall: a.FileCreatedAt.UTC(), Offset: &zero}
}

// fileLayer maps exiftool's metadata onto the file layer of the metadata
// object. Place names belong to the geocoding layer and are never set
// here. Rating -1 ("rejected" in XMP) is stored as 0, the bottom of the
// API's 0..5 scale.
func fileLayer(m *exif.Metadata) catalog.Metadata {
	l := catalog.Metadata{
		Make: m.Make, Model: m.Model, LensModel: m.LensModel,
		ModifiedDatetime: m.ModifiedDatetime, OriginalDatetime: m.OriginalDatetime,
		DigitizedDatetime: m.DigitizedDatetime,
		FNumber:           m.FNumber, FocalLength: m.FocalLength, ISO: m.ISO,
		ExposureTime: m.ExposureTime, ExposureBias: m.ExposureBias,
		Latitude: m.Latitude, Longitude: m.Longitude, Altitude: m.Altitude,
		Timezone: m.Timezone, Description: m.Description, FPS: m.FPS,
		LivePhotoCID: m.LivePhotoCID, ProjectionType: m.ProjectionType,
		ProfileDescription: m.ProfileDescription,
		SerialNumber:       m.SerialNumber, BurstID: m.BurstID,
	}
	source := catalog.CaptureFromFile
	if m.Capture != nil {
		source = m.Capture.Source
	}
	l.CaptureSource = &source
	if m.Orientation != nil {
		o := float64(*m.Orientation)
		l.Orientation = &o
	}
	if m.Rating != nil {
		r := max(*m.Rating, 0)
		l.Rating = &r
	}
	return l
}
