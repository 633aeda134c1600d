package pipeline

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // posters and JPEG previews
	"math"
	"slices"
	"time"

	_ "golang.org/x/image/webp" // previews

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/describe"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/tasks"
)

// The ML steps' kinds: geocode → faces → cluster → ocr → describe.
const (
	KindFaces    = "faces"
	KindOCR      = "ocr"
	KindDescribe = "describe"
)

// ML is what the machine-learning steps work with (server/app builds it
// once per process). A nil Faces or Text makes its step succeed without
// doing anything (tasks.Skip), with FacesOff or TextOff as the reason; a
// nil Describer is describe.Builtin.
type ML struct {
	Faces     ml.FaceAnalyzer
	FacesOff  string
	Text      ml.TextReader
	TextOff   string
	Describer describe.Describer
}

// Faces finds the faces in an image's preview, or a video's poster frame,
// and stores each — source machine, box as fractions of the upright
// image, the detector's confidence, the 512-d embedding as float32
// little-endian — with a face.created event, in one transaction. Run
// again, it replaces the asset's machine faces that no user decision holds
// (store.Faces.Replaceable) and keeps the others: drawn faces, faces a
// user placed or took away, faces of people a user made or acted on; a
// detection overlapping a kept face is that face, not a new one. A face
// found again where it was is kept as it is, with its person. On the very
// rendering it read last time (the chain runs again after a position
// edit) it does nothing at all, so a face a user deleted stays deleted.
// Without the ML runtime or models, or with ML off, it is skipped
// (tasks.Skip). Idempotent.
func (p *Pipeline) Faces(ctx context.Context, assetID string) error {
	if off := p.facesOff(); off != "" {
		return tasks.Skip(off)
	}
	return p.settle(ctx, assetID, p.faces(ctx, assetID))
}

func (p *Pipeline) faces(ctx context.Context, id string) error {
	img, sum, err := p.unreadOf(ctx, id, KindFaces)
	if err != nil || img == nil {
		return err
	}
	found, err := p.d.ML.Faces.DetectFaces(ctx, img)
	if err != nil {
		return mlFailure(err, "detect faces")
	}
	return p.inAssetTx(ctx, id, func(r store.Repos) error {
		a, err := r.Assets().Get(ctx, id)
		if errors.Is(err, catalog.ErrNotFound) {
			return errVanished
		}
		if err != nil {
			return err
		}
		if err := p.saveFaces(ctx, r, a, found); err != nil {
			return err
		}
		return r.AssetTexts().PutRan(ctx, id, KindFaces, sum, p.d.Now().UTC())
	})
}

// sameBox is how far (as a fraction of the image) a box and a confidence
// may move and still be the face found before: a fraction of a pixel.
const sameBox = 1e-4

// overlapsKept is the intersection over union from which a detection is
// taken to be a face the step keeps.
const overlapsKept = 0.4

// saveFaces writes the detections of asset a inside a transaction.
func (p *Pipeline) saveFaces(ctx context.Context, r store.Repos, a *catalog.Asset, found []ml.Face) error {
	all, err := r.Faces().ForAssets(ctx, []string{a.ID})
	if err != nil {
		return err
	}
	replaceable, err := r.Faces().Replaceable(ctx, a.ID)
	if err != nil {
		return err
	}
	isReplaceable := make(map[string]bool, len(replaceable))
	for _, f := range replaceable {
		isReplaceable[f.ID] = true
	}
	var kept []catalog.BoundingBox
	for _, f := range all {
		if !isReplaceable[f.ID] {
			kept = append(kept, f.Box)
		}
	}
	matched := make(map[string]bool, len(replaceable))
	var add []ml.Face
next:
	for _, d := range found {
		box := catalog.BoundingBox{X: d.Box.X, Y: d.Box.Y, Width: d.Box.Width, Height: d.Box.Height}
		if box.Validate() != nil || len(d.Embedding) != ml.EmbeddingSize {
			continue
		}
		for _, k := range kept {
			if iou(box, k) >= overlapsKept {
				continue next
			}
		}
		for _, f := range replaceable {
			if !matched[f.ID] && same(f, box, d.Score) {
				matched[f.ID] = true
				continue next
			}
		}
		add = append(add, d)
	}
	now := p.d.Now().UTC()
	var gone []catalog.Face
	for _, f := range replaceable {
		if !matched[f.ID] {
			gone = append(gone, f)
		}
	}
	if err := p.removeFaces(ctx, r, gone, now); err != nil {
		return err
	}
	for _, d := range add {
		score := d.Score
		f := &catalog.Face{ID: catalog.NewID(catalog.PrefixFace, now), AssetID: a.ID, LibraryID: a.LibraryID,
			Box:    catalog.BoundingBox{X: d.Box.X, Y: d.Box.Y, Width: d.Box.Width, Height: d.Box.Height},
			Source: catalog.FaceMachine, Confidence: &score, Embedding: EmbeddingBytes(d.Embedding),
			CreatedAt: now, UpdatedAt: now}
		if err := r.Faces().Create(ctx, f); err != nil {
			return err
		}
		if err := mlEvent(ctx, r, "face.created", a.LibraryID, f.ID, map[string]any{"asset_id": a.ID,
			"person_id": nil, "source": f.Source}, now); err != nil {
			return err
		}
	}
	return nil
}

// removeFaces deletes faces a re-run no longer finds, with their
// face.deleted events and a person.updated for each person who lost one.
func (p *Pipeline) removeFaces(ctx context.Context, r store.Repos, gone []catalog.Face, now time.Time) error {
	if len(gone) == 0 {
		return nil
	}
	ids := make([]string, len(gone))
	for i, f := range gone {
		ids[i] = f.ID
	}
	if err := r.Faces().Delete(ctx, ids); err != nil {
		return err
	}
	var people []string
	for _, f := range gone {
		if err := mlEvent(ctx, r, "face.deleted", f.LibraryID, f.ID, map[string]any{"asset_id": f.AssetID,
			"person_id": f.PersonID}, now); err != nil {
			return err
		}
		if f.PersonID != nil && !slices.Contains(people, *f.PersonID) {
			people = append(people, *f.PersonID)
			if err := mlEvent(ctx, r, "person.updated", f.LibraryID, *f.PersonID,
				map[string]any{"fields": []string{"faces"}}, now); err != nil {
				return err
			}
		}
	}
	return nil
}

// facesOff, clusterOff and ocrOff are the ML steps' tasks.Kind.Off: why
// this process would skip them, or "". Clustering places the machine
// faces the faces step found, so it has nothing to do without that step.
func (p *Pipeline) facesOff() string {
	if p.d.ML.Faces != nil {
		return ""
	}
	return offReason(p.d.ML.FacesOff)
}

func (p *Pipeline) clusterOff() string {
	if off := p.facesOff(); off != "" {
		return "no faces are detected: " + off
	}
	return ""
}

func (p *Pipeline) ocrOff() string {
	if p.d.ML.Text != nil {
		return ""
	}
	return offReason(p.d.ML.TextOff)
}

// offReason is the skip note of an ML step without its tool.
func offReason(reason string) string {
	if reason == "" {
		return "no ML runtime was given to the pipeline"
	}
	return reason
}

// same reports whether a stored face is the detection at box with score.
func same(f catalog.Face, box catalog.BoundingBox, score float64) bool {
	close := func(a, b float64) bool { return math.Abs(a-b) <= sameBox }
	return f.Confidence != nil && close(*f.Confidence, score) && close(f.Box.X, box.X) && close(f.Box.Y, box.Y) &&
		close(f.Box.Width, box.Width) && close(f.Box.Height, box.Height)
}

// iou is the intersection over union of two boxes.
func iou(a, b catalog.BoundingBox) float64 {
	w := min(a.X+a.Width, b.X+b.Width) - max(a.X, b.X)
	h := min(a.Y+a.Height, b.Y+b.Height) - max(a.Y, b.Y)
	if w <= 0 || h <= 0 {
		return 0
	}
	inter := w * h
	return inter / (a.Width*a.Height + b.Width*b.Height - inter)
}

// EmbeddingBytes is the stored form of a face embedding (faces.embedding):
// its float32 values, little-endian.
func EmbeddingBytes(e ml.Embedding) []byte {
	out := make([]byte, 4*len(e))
	for i, v := range e {
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(v))
	}
	return out
}

// unreadOf is unread for the asset with id, which it reads first.
func (p *Pipeline) unreadOf(ctx context.Context, id, step string) (image.Image, string, error) {
	a, err := p.asset(ctx, id)
	if err != nil {
		return nil, "", err
	}
	return p.unread(ctx, a, step)
}

// mlFailure is the outcome of a model that failed: a skip when the
// runtime or model is missing (ml.ErrUnavailable), else an error to retry.
func mlFailure(err error, what string) error {
	if errors.Is(err, ml.ErrUnavailable) {
		return tasks.Skip(err.Error())
	}
	return fmt.Errorf("%s: %w", what, err)
}

// unread decodes the preview of an image, or the poster of a video, at
// its stored size (the face detector finds smaller faces in more pixels
// than the metrics' sample has) and returns it with the SHA-256 (hex) of
// its bytes; or nil when step already read this very rendering (a re-run
// after a position edit), which leaves it nothing to do.
func (p *Pipeline) unread(ctx context.Context, a *catalog.Asset, step string) (image.Image, string, error) {
	buf, err := p.rendering(a)
	if err != nil {
		return nil, "", err
	}
	h := sha256.Sum256(buf)
	sum := hex.EncodeToString(h[:])
	rec, err := p.d.Store.Read().AssetTexts().Get(ctx, a.ID)
	switch {
	case errors.Is(err, catalog.ErrNotFound):
	case err != nil:
		return nil, "", err
	case rec.Ran[step] == sum:
		return nil, sum, nil
	}
	img, _, err := image.Decode(bytes.NewReader(buf))
	if err != nil {
		return nil, "", fmt.Errorf("decode the rendering of asset %s: %w", a.ID, err)
	}
	return img, sum, nil
}

// mlEvent appends an event of the ML steps inside their transaction.
func mlEvent(ctx context.Context, r store.Repos, typ, libraryID, resourceID string, data any, now time.Time) error {
	body, err := json.Marshal(data)
	if err != nil {
		return err
	}
	return r.Events().Append(ctx, &catalog.Event{ID: catalog.NewID(catalog.PrefixEvent, now), Type: typ,
		LibraryID: libraryID, ResourceID: resourceID, Data: body, CreatedAt: now})
}
