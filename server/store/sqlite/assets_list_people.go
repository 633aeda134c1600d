package sqlite

// The person_ids filter of the counts and the search (assetConditions);
// the asset list's and the people repository are sqlstore's.

// personAssetConditions keeps the assets of "assets a" holding a face of
// every one of the people (decisions.md: person_ids means all of them).
func personAssetConditions(personIDs []string) ([]string, []any) {
	where := make([]string, len(personIDs))
	args := make([]any, len(personIDs))
	for i, id := range personIDs {
		where[i] = "EXISTS (SELECT 1 FROM person_assets pa WHERE pa.person_id = ? AND pa.asset_id = a.id)"
		args[i] = id
	}
	return where, args
}
