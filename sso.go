package turbinesim

import "context"

// SSOIdentity is what an identity provider says about a signed-in user.
type SSOIdentity struct {
	Provider      string // "google", "github", "microsoft"
	Subject       string // the provider's stable user id
	Email         string
	EmailVerified bool
	Name          string
}

// SSOService finds or creates the local account of a provider identity.
type SSOService interface {
	// SignInSSO returns the user linked to (provider, subject). Without a
	// link, an identity whose e-mail the provider has verified is linked
	// to the local account with that address, or a new organization and
	// verified administrator are created. An unverified e-mail is never
	// used (EFORBIDDEN), so that nobody takes over an account by claiming
	// its address at a provider. Inactive accounts get EUNAUTHORIZED.
	SignInSSO(ctx context.Context, id SSOIdentity) (*User, error)
}
