/** What a clone of this repository holds that the GitHub Actions and the bundled CLI need. */
export const ACTION_FILES = [
  'action.yml',
  'comment',
  'action',
  'packages/cli/package.json',
  'packages/cli/rolldown.config.mjs',
  'packages/cli/src',
  'packages/report/package.json',
  'packages/report/src',
  'packages/contracts/package.json',
  'packages/contracts/src',
  'packages/symbol-blocks/package.json',
  'packages/symbol-blocks/src',
];
