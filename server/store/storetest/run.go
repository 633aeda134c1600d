// Package storetest is the conformance suite every store implementation
// must pass: it checks the contracts documented in package store (ordering,
// paging, uniqueness, error kinds, transactions) through the interfaces
// alone, so a new dialect proves itself by calling Run.
package storetest

import (
	"testing"

	"github.com/photoctl/photoctl/server/store"
)

// Run runs the suite against the stores that open returns. open must return
// a fresh, empty, migrated store for each call and release it when t ends
// (t.Cleanup); every subtest calls it once, so subtests never share rows.
func Run(t *testing.T, open func(t *testing.T) store.Store) { RunExcept(t, open, nil) }

// group is a named list of cases; subtests are named after it.
type group struct {
	name  string
	cases []testCase
}

// suite lists every group in the order the suite runs them.
func suite() []group {
	return []group{
		{"Users", userCases},
		{"UserAdmin", userAdminCases},
		{"Libraries", libraryCases},
		{"LibraryPositions", libraryPositionCases},
		{"LibraryList", libraryListCases},
		{"LibraryMembers", libraryMemberCases},
		{"Invitations", invitationCases},
		{"APIKeys", apiKeyCases},
		{"APIKeyList", apiKeyListCases},
		{"Sessions", sessionCases},
		{"Identities", identityCases},
		{"OAuth", oauthCases},
		{"Events", eventCases},
		{"Settings", settingCases},
		{"Assets", assetCases},
		{"AssetList", assetListCases},
		{"AssetVersions", assetVersionCases},
		{"AssetListPeople", assetPeopleCases},
		{"AssetStackViews", assetStackViewCases},
		{"Aggregates", aggregateCases},
		{"Tasks", taskCases},
		{"TaskLists", taskListCases},
		{"People", personCases},
		{"Faces", faceCases},
		{"Clustering", clusteringCases},
		{"FacesML", faceMLCases},
		{"AssetTexts", assetTextCases},
		{"Albums", albumCases},
		{"ConcurrentAlbums", concurrentAlbumCases},
		{"Stacks", stackCases},
		{"Bursts", burstCases},
		{"Tags", tagCases},
		{"Search", searchCases},
		{"SearchPHash", searchPHashCases},
		{"Transactions", txCases},
		{"LibraryTransactions", libraryTxCases},
	}
}

// testCase is one contract, stated as a sentence, checked on a fresh store.
type testCase struct {
	name string
	run  func(t *testing.T, s store.Store)
}
