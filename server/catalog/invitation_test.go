package catalog

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestInvitationState(t *testing.T) {
	expires := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	disabled := expires.Add(-time.Hour)
	tests := []struct {
		name      string
		now       time.Time
		joiners   int
		disabled  *time.Time
		want      InvitationState
		remaining int
	}{
		{"active before expiry with places left", expires.Add(-time.Microsecond), 1, nil, InvitationActive, 2},
		{"expired at the instant itself (exclusive)", expires, 0, nil, InvitationExpired, 3},
		{"exhausted when every place is taken", expires.Add(-time.Hour), 3, nil, InvitationExhausted, 0},
		{"expired is reported before exhausted", expires.Add(time.Hour), 3, nil, InvitationExpired, 0},
		{"disabled beats expired and exhausted", expires.Add(time.Hour), 3, &disabled, InvitationDisabled, 0},
		{"disabled beats active", expires.Add(-time.Hour), 0, &disabled, InvitationDisabled, 3},
		{"remaining places are never negative", expires.Add(-time.Hour), 5, nil, InvitationExhausted, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv := &Invitation{ExpiresAt: expires, MaxJoiners: 3, JoinerCount: tt.joiners, DisabledAt: tt.disabled}
			require.Equal(t, tt.want, inv.State(tt.now))
			require.Equal(t, tt.remaining, inv.RemainingPlaces())
		})
	}
}
