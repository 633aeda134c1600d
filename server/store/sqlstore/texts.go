package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// assetTexts keeps asset_text rows.
type assetTexts struct{ q Q }

var _ store.AssetTexts = assetTexts{}

// AssetTexts returns the repository of what the ML steps recorded.
func (r Repos) AssetTexts() store.AssetTexts { return assetTexts{r.Q} }

// textLineRow is a TextLine as stored in asset_text.ocr_lines.
type textLineRow struct {
	Text string `json:"text"`
	Box  struct {
		X      float64 `json:"x"`
		Y      float64 `json:"y"`
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	} `json:"box"`
	Score float64 `json:"score"`
}

func (s assetTexts) Get(ctx context.Context, assetID string) (*catalog.AssetText, error) {
	var t catalog.AssetText
	var lines *string
	var ran string
	var updated int64
	asText := s.q.d.JSONAsText
	err := s.q.queryRow(ctx, `SELECT asset_id, ocr_text, `+asText("ocr_lines")+`, ocr_terms, describer, `+asText("ran")+`,
		updated_at FROM asset_text WHERE asset_id = ?`, assetID).
		Scan(&t.AssetID, &t.OCRText, &lines, &t.OCRTerms, &t.Describer, &ran, &updated)
	if err != nil {
		return nil, s.q.one("text of asset", assetID, err)
	}
	if err := json.Unmarshal([]byte(ran), &t.Ran); err != nil {
		return nil, fmt.Errorf("text of asset %s: ran: %w", assetID, err)
	}
	if lines != nil {
		var rows []textLineRow
		if err := json.Unmarshal([]byte(*lines), &rows); err != nil {
			return nil, fmt.Errorf("text of asset %s: lines: %w", assetID, err)
		}
		t.OCRLines = make([]catalog.TextLine, len(rows))
		for i, r := range rows {
			t.OCRLines[i] = catalog.TextLine{Text: r.Text, Score: r.Score,
				Box: catalog.BoundingBox{X: r.Box.X, Y: r.Box.Y, Width: r.Box.Width, Height: r.Box.Height}}
		}
	}
	t.UpdatedAt = fromMicros(updated)
	return &t, nil
}

func (s assetTexts) PutOCR(ctx context.Context, assetID string, lines []catalog.TextLine, terms string,
	now time.Time) error {
	rows := make([]textLineRow, len(lines))
	texts := make([]string, len(lines))
	for i, l := range lines {
		rows[i].Text, rows[i].Score = l.Text, l.Score
		rows[i].Box.X, rows[i].Box.Y, rows[i].Box.Width, rows[i].Box.Height = l.Box.X, l.Box.Y, l.Box.Width, l.Box.Height
		texts[i] = l.Text
	}
	js, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	_, err = s.q.exec(ctx, `INSERT INTO asset_text (asset_id, ocr_text, ocr_lines, ocr_terms, updated_at)
		VALUES (?, ?, `+s.q.d.JSONArg+`, ?, ?) ON CONFLICT (asset_id) DO UPDATE SET ocr_text = excluded.ocr_text,
		ocr_lines = excluded.ocr_lines, ocr_terms = excluded.ocr_terms, updated_at = excluded.updated_at`,
		assetID, strings.Join(texts, "\n"), string(js), terms, micros(now))
	return s.q.one("put text of asset", assetID, err)
}

func (s assetTexts) PutOCRTerms(ctx context.Context, assetID, text, terms string) (bool, error) {
	res, err := s.q.exec(ctx, `UPDATE asset_text SET ocr_terms = ? WHERE asset_id = ? AND ocr_text = ?`,
		terms, assetID, text)
	if err != nil {
		return false, fmt.Errorf("put terms of asset %s: %w", assetID, s.q.translate(err))
	}
	return res.RowsAffected() > 0, nil
}

func (s assetTexts) OCRTexts(ctx context.Context, after string, limit int) ([]catalog.AssetText, error) {
	return queryAll(ctx, s.q, func(r scanner) (catalog.AssetText, error) {
		var t catalog.AssetText
		return t, r.Scan(&t.AssetID, &t.OCRText, &t.OCRTerms)
	}, `SELECT asset_id, ocr_text, ocr_terms FROM asset_text WHERE asset_id > ? AND ocr_text IS NOT NULL
		ORDER BY asset_id LIMIT ?`, after, limit)
}

func (s assetTexts) PutRan(ctx context.Context, assetID, step, sum string, now time.Time) error {
	ran, err := json.Marshal(map[string]string{step: sum})
	if err != nil {
		return err
	}
	_, err = s.q.exec(ctx, `INSERT INTO asset_text (asset_id, ran, updated_at) VALUES (?, `+s.q.d.JSONArg+`, ?)
		ON CONFLICT (asset_id) DO UPDATE SET ran = `+s.q.d.JSONMerge("asset_text.ran", "excluded.ran")+`,
		updated_at = excluded.updated_at`, assetID, string(ran), micros(now))
	return s.q.one("put steps run on asset", assetID, err)
}

func (s assetTexts) PutDescriber(ctx context.Context, assetID, describer string, now time.Time) error {
	_, err := s.q.exec(ctx, `INSERT INTO asset_text (asset_id, describer, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (asset_id) DO UPDATE SET describer = excluded.describer, updated_at = excluded.updated_at`,
		assetID, describer, micros(now))
	return s.q.one("put describer of asset", assetID, err)
}
