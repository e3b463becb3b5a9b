/** Where on-premises enquiries go (spec §1: on-premises deployment through a support contact). */
export const SUPPORT_EMAIL = 'support@memtrail.dev';

/** The example depth of a historical onboarding (spec §9). */
export const ONBOARD_EXAMPLE_COMMITS = 50;
