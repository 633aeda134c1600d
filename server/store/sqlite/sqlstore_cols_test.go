package sqlite

// The column lists of repositories written once (server/store/sqlstore)
// that the plan tests select, copied as planUserCols is.
const (
	identityCols    = `issuer, subject, user_id, email, created_at`
	oauthClientCols = `c.id, c.name, c.secret_hash, c.redirect_uris, c.scopes, c.created_by, c.created_at, c.revoked_at`
	libraryCols     = `l.id, l.name, l.owner_id, l.trashed_at, l.created_at, l.updated_at`
	memberCols      = `m.user_id, u.first_name, u.last_name, u.email, m.role, m.invitation_id, m.created_at,
	COALESCE(m.updated_at, m.created_at)`
	memberFrom     = `library_members m JOIN users u ON u.id = m.user_id`
	invitationCols = `i.id, i.library_id, i.created_by, u.first_name, u.last_name, i.token_hash, i.role,
	i.expires_at, i.max_joiners, i.disabled_at, i.created_at, i.updated_at,
	(SELECT count(*) FROM invitation_joins j WHERE j.invitation_id = i.id)`
	invitationFrom = `invitations i JOIN users u ON u.id = i.created_by`
)
