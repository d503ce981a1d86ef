package discoursetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
)

// state is the forum's content as saved to a file.
type state struct {
	Users         []*User           `json:"users"`
	APIKeys       map[string]string `json:"api_keys"`
	Categories    []*Category       `json:"categories"`
	Topics        []*Topic          `json:"topics"`
	Posts         []*Post           `json:"posts"`
	Notifications []*Notification   `json:"notifications"`
	NextID        map[string]int    `json:"next_id"`
}

// SaveState writes the forum's content to path atomically.
func (s *Server) SaveState(path string) error {
	// Saves are serialised, so a later save always holds a later snapshot.
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	s.mu.Lock()
	st := state{APIKeys: s.apiKeys, Categories: s.categories, Posts: s.posts, Notifications: s.notifications, NextID: s.nextID}
	for _, u := range s.users {
		st.Users = append(st.Users, u)
	}
	for _, t := range s.topics {
		st.Topics = append(st.Topics, t)
	}
	b, err := json.Marshal(st)
	s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("discoursetest: encode state: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".forum-state-*")
	if err != nil {
		return fmt.Errorf("discoursetest: save state: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("discoursetest: save state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("discoursetest: save state: %w", err)
	}
	return os.Rename(tmp.Name(), path)
}

// LoadState replaces the forum's content with what path holds.
func (s *Server) LoadState(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("discoursetest: load state: %w", err)
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("discoursetest: load state %s: %w", path, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users = map[int]*User{}
	for _, u := range st.Users {
		s.users[u.ID] = u
	}
	s.topics = map[int]*Topic{}
	for _, t := range st.Topics {
		s.topics[t.ID] = t
	}
	s.apiKeys, s.categories, s.posts, s.notifications, s.nextID = st.APIKeys, st.Categories, st.Posts, st.Notifications, st.NextID
	s.byTopic, s.byID = map[int][]*Post{}, map[int]*Post{}
	for _, p := range s.posts {
		s.index(p)
	}
	if s.apiKeys == nil {
		s.apiKeys = map[string]string{}
	}
	if s.nextID == nil {
		s.nextID = map[string]int{}
	}
	return nil
}

// Persist wraps h so that the forum is saved to path after every request
// that may have changed it.
func (s *Server) Persist(h http.Handler, path string, onErr func(error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if err := s.SaveState(path); err != nil && onErr != nil {
				onErr(err)
			}
		}
	})
}

// SeedBasic creates the users and the one category of a bare forum: the
// bot (a moderator), alice, bob, and admin (an administrator), and a
// "Support" category.
func (s *Server) SeedBasic(botName string) {
	if botName == "" {
		botName = "herald"
	}
	s.AddUser(User{Username: "admin", Name: "Site Admin", Admin: true, TrustLevel: 4, Groups: []string{"staff", "admins"}})
	s.AddUser(User{Username: botName, Name: "Herald", Moderator: true, TrustLevel: 4, Groups: []string{"staff", "moderators"}})
	s.AddUser(User{Username: "alice", Name: "Alice", TrustLevel: 1})
	s.AddUser(User{Username: "bob", Name: "Bob", TrustLevel: 2})
	s.AddCategory("Support")
}
