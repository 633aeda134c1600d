package blob

import "time"

// SetKeptClock makes the store's kept staging files age by now (tests).
func SetKeptClock(s *Store, now func() time.Time) { s.kept.now = now }

// SetKeptLimit bounds the bytes of staging files the store keeps (tests).
func SetKeptLimit(s *Store, n int64) { s.kept.limit = n }
