package sqlstore

// Repos are the repositories written here, over one Conn; each dialect's
// own Repos embeds it, so a repository ported here replaces the dialect's
// by promotion.
type Repos struct{ Q Q }
