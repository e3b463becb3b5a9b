const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const PATH = 'metadata.github_context';
/** The context when the upload has one; problems are reported through `fail`. */
export function parseGithubContext(value, fail) {
    if (value === undefined || value === null)
        return null;
    if (typeof value !== 'object' || Array.isArray(value)) {
        fail(`${PATH} must be an object`);
        return null;
    }
    const context = value;
    // The CLI sends an integer; a numeric string costs nothing to accept.
    const prNumber = Number(context.pr_number);
    const repository = context.repository;
    const commitSha = typeof context.commit_sha === 'string' ? context.commit_sha.trim().toLowerCase() : '';
    const problems = [
        !(Number.isSafeInteger(prNumber) && prNumber > 0) &&
            `${PATH}.pr_number must be a pull request number`,
        !(typeof repository === 'string' && repository.length > 0 && repository.length <= 200) &&
            `${PATH}.repository must be the repository's owner/name`,
        !SHA.test(commitSha) && `${PATH}.commit_sha must be a full hexadecimal commit SHA`,
    ].filter((problem) => Boolean(problem));
    problems.forEach(fail);
    if (problems.length > 0)
        return null;
    return { prNumber, repository: repository.trim(), commitSha };
}
