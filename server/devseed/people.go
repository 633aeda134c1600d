package devseed

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// Faces of the generated library (Options.People): a share of the photos
// shows one to three of the people, chosen with Zipf-like popularity (the
// first few appear in most photos with people, as family members do).
const faceShare = 0.3

var (
	firstNames = []string{"Alice", "Bruno", "Chloé", "David", "Emma", "Farid", "Grace", "Hugo", "Ines", "Jonas",
		"Keiko", "Liam", "Maya", "Noah", "Olga", "Pablo", "Quinn", "Rosa", "Sven", "Tara"}
	lastNames = []string{"Martin", "Schmidt", "Rossi", "Tanaka", "Silva", "Novak", "Okafor", "Larsen", "Dubois", "Kim"}
)

// cast is the people faces are drawn from.
type cast struct {
	r   *rand.Rand
	ids []string
	cum []float64 // cumulative popularity
}

// newCast makes n named people in the library (reusing those that exist
// under the same names) and returns them.
func newCast(ctx context.Context, st store.Store, r *rand.Rand, libraryID string, n int, now time.Time) (*cast, error) {
	c := &cast{r: r}
	err := st.InTx(ctx, func(repos store.Repos) error {
		for i := range n {
			name := firstNames[i%len(firstNames)] + " " + lastNames[(i/len(firstNames))%len(lastNames)]
			if i >= len(firstNames)*len(lastNames) {
				name += " " + string(rune('A'+i/(len(firstNames)*len(lastNames))%26))
			}
			p, err := repos.People().FindByName(ctx, libraryID, catalog.NameKey(name))
			if errors.Is(err, catalog.ErrNotFound) {
				p = &catalog.Person{ID: catalog.NewID(catalog.PrefixPerson, now), LibraryID: libraryID, Name: name,
					Verified: true, CreatedAt: now, UpdatedAt: now}
				err = repos.People().Create(ctx, p)
			}
			if err != nil {
				return err
			}
			c.ids = append(c.ids, p.ID)
			c.cum = append(c.cum, c.total()+1/float64(i+1))
		}
		return nil
	})
	return c, err
}

func (c *cast) total() float64 {
	if len(c.cum) == 0 {
		return 0
	}
	return c.cum[len(c.cum)-1]
}

// faces returns the faces of an asset: none for most.
func (c *cast) faces(a *catalog.Asset, now time.Time) []catalog.Face {
	if len(c.ids) == 0 || a.MediaType != catalog.MediaImage || c.r.Float64() >= faceShare {
		return nil
	}
	n := 1 + c.r.IntN(3)
	seen := map[string]bool{}
	var out []catalog.Face
	for range n {
		x := c.r.Float64() * c.total()
		i := 0
		for c.cum[i] < x {
			i++
		}
		id := c.ids[i]
		if seen[id] {
			continue
		}
		seen[id] = true
		conf := 0.9
		out = append(out, catalog.Face{ID: catalog.NewID(catalog.PrefixFace, now), AssetID: a.ID, LibraryID: a.LibraryID,
			PersonID: &id, Box: catalog.BoundingBox{X: 0.1 + 0.25*float64(len(out)), Y: 0.2, Width: 0.2, Height: 0.3},
			Source: catalog.FaceMachine, Confidence: &conf, CreatedAt: now, UpdatedAt: now})
	}
	return out
}
