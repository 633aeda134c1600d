package pipeline

import (
	"context"
	"errors"
	"time"

	"github.com/photoctl/photoctl/ingest/wordsplit"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// ocrTermsVersionKey prefixes the setting that records that every OCR
// text stored was split with a version of the splitter's data: one key per
// version, as for geocoding (geocodeVersionKey).
const ocrTermsVersionKey = "ocr_terms_version:"

// ocrTermsPage is how many texts one transaction of SplitOCRTexts
// considers: a few hundred rows, each rewriting its search document.
const ocrTermsPage = 200

// SplitOCRTexts brings the terms of every stored OCR text
// (catalog.AssetText.OCRTerms) to this splitter (wordsplit.Terms; version:
// wordsplit.DataVersion), unless a pass with this version finished before: texts read before the terms existed have none
// (migration 0020), and a new dictionary or rule splits some texts
// otherwise. It pages through the records in asset id order and writes,
// a page a transaction, only the records whose terms change, each only if
// its text is still the one split (a text read again meanwhile came with
// its own terms); then it records the version. It returns how many records
// it wrote. A pass cut short (a stop) is done again from the start by the
// next process that starts, which writes nothing for the records done.
// Serve and worker run it in the background at start when they run tasks;
// two at once do the same writes. Idempotent.
func SplitOCRTexts(ctx context.Context, st store.Store, version string, now time.Time) (int, error) {
	key := ocrTermsVersionKey + version
	if _, err := st.Read().Settings().Get(ctx, key); !errors.Is(err, catalog.ErrNotFound) {
		return 0, err // nil: done for this version
	}
	type change struct{ id, text, terms string }
	written, after := 0, ""
	for {
		page, err := st.Read().AssetTexts().OCRTexts(ctx, after, ocrTermsPage)
		if err != nil {
			return written, err
		}
		if len(page) == 0 {
			break
		}
		after = page[len(page)-1].AssetID
		var changes []change
		for _, t := range page {
			terms := wordsplit.Terms(*t.OCRText)
			if t.OCRTerms == nil || *t.OCRTerms != terms {
				changes = append(changes, change{t.AssetID, *t.OCRText, terms})
			}
		}
		if len(changes) == 0 {
			continue
		}
		n := 0
		err = st.InTx(ctx, func(r store.Repos) error {
			n = 0
			for _, c := range changes {
				put, err := r.AssetTexts().PutOCRTerms(ctx, c.id, c.text, c.terms)
				if err != nil {
					return err
				}
				if put {
					n++
				}
			}
			return nil
		})
		if err != nil {
			return written, err
		}
		written += n
	}
	err := st.InTx(ctx, func(r store.Repos) error {
		_, err := r.Settings().PutIfAbsent(ctx, key, []byte(now.UTC().Format(time.RFC3339Nano)))
		return err
	})
	return written, err
}
