package postgres

import (
	"fmt"

	"github.com/photoctl/photoctl/server/store"
)

// The repositories below have no PostgreSQL implementation yet (issue 12
// is built in stages). Asking for one panics with this message instead of
// returning a stub that would answer wrongly; the store is not selectable
// by configuration (database.url) until none is left.
const notYet = "postgres store: %s is not implemented yet (issue 12); use the SQLite store"

func unimplemented(repo string) string { return fmt.Sprintf(notYet, repo) }

func (repos) Assets() store.Assets                   { panic(unimplemented("Assets")) }
func (repos) AssetAggregates() store.AssetAggregates { panic(unimplemented("AssetAggregates")) }
func (repos) AssetVersions() store.AssetVersions     { panic(unimplemented("AssetVersions")) }
func (repos) Albums() store.Albums                   { panic(unimplemented("Albums")) }
func (repos) Stacks() store.Stacks                   { panic(unimplemented("Stacks")) }
func (repos) Bursts() store.Bursts                   { panic(unimplemented("Bursts")) }
func (repos) People() store.People                   { panic(unimplemented("People")) }
func (repos) Faces() store.Faces                     { panic(unimplemented("Faces")) }
func (repos) Clustering() store.Clustering           { panic(unimplemented("Clustering")) }
func (repos) AssetTexts() store.AssetTexts           { panic(unimplemented("AssetTexts")) }
func (repos) Tasks() store.Tasks                     { panic(unimplemented("Tasks")) }
func (repos) Search() store.Search                   { panic(unimplemented("Search")) }
