/** Todoist's premium_status as the dashboard names it: task durations need Premium or Business. */
export function todoistAccountType(premiumStatus: string): 'Premium' | 'Business' | 'Free' {
  if (premiumStatus === 'current_personal_plan' || premiumStatus === 'legacy_personal_plan') return 'Premium';
  if (premiumStatus === 'teams_business_member') return 'Business';
  return 'Free';
}
