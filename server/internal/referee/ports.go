package referee

// The accessors of the ports (store.go) on the Server: the only places
// that read s.Store.

// GamePort is the archive's games and players.
func (s *Server) GamePort() gameStore { return s.Store }

// recordPort is the record of mails and the one way to write.
func (s *Server) recordPort() recordStore { return s.Store }

// outboxPort is the sending side of the outbox.
func (s *Server) outboxPort() outboxStore { return s.Store }

// ClockPort is the clock's leave and timers.
func (s *Server) ClockPort() clockStore { return s.Store }

// DigestPort is the daily digest's due digests.
func (s *Server) DigestPort() digestStore { return s.Store }

// EnginePort is the engine opponent's games and held replies.
func (s *Server) EnginePort() engineStore { return s.Store }

// SpectatorPort is the spectators of games.
func (s *Server) SpectatorPort() spectatorStore { return s.Store }

// consentPort is the requests to confirm.
func (s *Server) consentPort() consentStore { return s.Store }

// TournamentPort is the tournaments, their entries and spectators, and
// the ratings.
func (s *Server) TournamentPort() TournamentStore { return s.Store }

// NamePort is the public names, and false when the store keeps none.
func (s *Server) NamePort() (PublicNameStore, bool) {
	ns, ok := s.Store.(PublicNameStore)
	return ns, ok
}
