/** `GET /api/projects` and `GET /api/{project}/targets` take these; all optional. */
export const LIST_LIMITS = { pageMax: 200 } as const;
