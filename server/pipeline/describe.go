package pipeline

import (
	"context"
	"errors"
	"net/http"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/describe"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// Describe writes the asset's top-level description (Asset.Description)
// with the configured describer (ML.Describer, else describe.Builtin) from
// what the steps before found — faces and their people, text, place,
// capture time, metrics — and the preview (a video's poster frame), and
// records which describer wrote it (store.AssetTexts), with an
// asset.updated event (step "describe", fields ["description"] when it
// changed). A refusal is stored as "" (null stays "not run"). A describer
// that fails (a provider's HTTP error) fails the task, which is retried;
// nothing is stored. The user's metadata.description is never touched.
// Idempotent: the same signals give the same built-in description, and
// nothing is written when nothing changed.
func (p *Pipeline) Describe(ctx context.Context, assetID string) error {
	return p.settle(ctx, assetID, p.describe(ctx, assetID))
}

func (p *Pipeline) describer() describe.Describer {
	if p.d.ML.Describer != nil {
		return p.d.ML.Describer
	}
	return describe.Builtin{}
}

func (p *Pipeline) describe(ctx context.Context, id string) error {
	a, err := p.asset(ctx, id)
	if err != nil {
		return err
	}
	in, err := p.describeInput(ctx, a)
	if err != nil {
		return err
	}
	d := p.describer()
	text, err := d.Describe(ctx, in)
	if err != nil {
		return err
	}
	name := d.Name()
	return p.inAssetTx(ctx, id, func(r store.Repos) error {
		a, err := r.Assets().Get(ctx, id)
		if errors.Is(err, catalog.ErrNotFound) {
			return errVanished
		}
		if err != nil {
			return err
		}
		rec, err := r.AssetTexts().Get(ctx, id)
		if err != nil && !errors.Is(err, catalog.ErrNotFound) {
			return err
		}
		described := a.Description == nil || *a.Description != text
		renamed := rec == nil || rec.Describer == nil || *rec.Describer != name
		if !described && !renamed {
			return nil
		}
		now := p.d.Now().UTC()
		fields := []string{}
		if described {
			a.Description, a.UpdatedAt = &text, now
			if err := r.Assets().Update(ctx, a); err != nil {
				return err
			}
			fields = append(fields, "description")
		}
		if err := r.AssetTexts().PutDescriber(ctx, id, name, now); err != nil {
			return err
		}
		return mlEvent(ctx, r, "asset.updated", a.LibraryID, id, map[string]any{"fields": fields, "step": "describe"}, now)
	})
}

// describeInput gathers what is known about asset a for a describer.
func (p *Pipeline) describeInput(ctx context.Context, a *catalog.Asset) (describe.Input, error) {
	buf, err := p.rendering(a)
	if err != nil {
		return describe.Input{}, err
	}
	m := a.Merged()
	in := describe.Input{Image: buf, ImageType: http.DetectContentType(buf), Video: a.MediaType == catalog.MediaVideo,
		Taken: a.Capture.Wall, Sharpness: metric(a, "sharpness"), Exposure: metric(a, "exposure")}
	if a.Width != nil && a.Height != nil {
		in.Width, in.Height = *a.Width, *a.Height
	}
	if m.DisplayLabel != nil {
		in.Place = *m.DisplayLabel
	}
	r := p.d.Store.Read()
	faces, err := r.Faces().ForAssets(ctx, []string{a.ID})
	if err != nil {
		return describe.Input{}, err
	}
	var personIDs []string
	for _, f := range faces {
		if f.PersonID != nil {
			personIDs = append(personIDs, *f.PersonID)
		}
	}
	people, err := r.People().GetMany(ctx, personIDs)
	if err != nil {
		return describe.Input{}, err
	}
	names := make(map[string]string, len(people))
	for _, pe := range people {
		if !pe.IsHidden { // a hidden person is not named in descriptions
			names[pe.ID] = pe.Name
		}
	}
	for _, f := range faces {
		face := describe.Face{Box: ml.Box{X: f.Box.X, Y: f.Box.Y, Width: f.Box.Width, Height: f.Box.Height}}
		if f.PersonID != nil {
			face.Name = names[*f.PersonID]
		}
		in.Faces = append(in.Faces, face)
	}
	rec, err := r.AssetTexts().Get(ctx, a.ID)
	switch {
	case errors.Is(err, catalog.ErrNotFound):
	case err != nil:
		return describe.Input{}, err
	case rec.OCRText != nil:
		in.Text = *rec.OCRText
	}
	return in, nil
}

// metric returns a quality metric of a, nil when not measured.
func metric(a *catalog.Asset, key string) *float64 {
	if v, ok := a.Metrics[key].(float64); ok {
		return &v
	}
	return nil
}
