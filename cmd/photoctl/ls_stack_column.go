package main

import (
	"strconv"

	"github.com/photoctl/photoctl/server/api"
)

// lsRow is an asset in the ls table: its assetRow with the STACK column
// before PLACE and NAME.
func lsRow(a *api.Asset) []string {
	row := assetRow(a)
	place := len(row) - 2 // PLACE, then NAME
	return append(row[:place:place], stackCell(a), row[place], row[place+1])
}

// stackCell is the STACK column of the ls table: "+N" on a stack's cover,
// N being its other members; "in stack" on another member; "-" outside
// stacks.
func stackCell(a *api.Asset) string {
	switch {
	case a.Stack == nil:
		return "-"
	case a.Stack.CoverAssetID == a.ID:
		return "+" + strconv.Itoa(max(a.Stack.AssetCount-1, 0))
	default:
		return "in stack"
	}
}
