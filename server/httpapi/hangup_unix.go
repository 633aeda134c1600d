//go:build unix

package httpapi

import (
	"net"
	"syscall"
)

// peerHungUp reports whether the client has shut its side of conn (a
// FIN, or a reset, has come), looking at the socket without taking a byte
// from it and without waiting. A connection it cannot look at (not a
// socket) counts as open.
func peerHungUp(conn net.Conn) bool {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	hungUp := false
	_ = raw.Read(func(fd uintptr) bool {
		var b [1]byte
		n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		hungUp = n == 0 && err == nil || err == syscall.ECONNRESET
		return true // never wait for the socket
	})
	return hungUp
}
