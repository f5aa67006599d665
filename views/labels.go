package views

import "github.com/turbinesim/turbinesim"

func planLabel(p turbinesim.Plan) string {
	switch p {
	case turbinesim.PlanBeta:
		return "Beta"
	case turbinesim.PlanPro:
		return "Pro"
	case turbinesim.PlanAcademic:
		return "Academic"
	case turbinesim.PlanEnterprise:
		return "Enterprise"
	}
	return string(p)
}

func roleLabel(r turbinesim.Role) string {
	switch r {
	case turbinesim.RoleAdmin:
		return "Administrator"
	case turbinesim.RoleMember:
		return "Member"
	}
	return string(r)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
