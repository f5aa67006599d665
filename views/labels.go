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

// batchKindLabel names a batch kind for people ("DLC batch", not "dlc").
func batchKindLabel(k turbinesim.BatchKind) string {
	switch k {
	case turbinesim.BatchDLC:
		return "DLC batch"
	case turbinesim.BatchParametric:
		return "Parametric sweep"
	}
	return string(k)
}
