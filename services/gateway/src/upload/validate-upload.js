import { BadRequestException } from '@nestjs/common';
import { parseGithubContext } from './github-context.js';
const SHA = /^[0-9a-f]{4,64}$/;
const MAX_NAME = 200;
class Fields {
    errors;
    constructor(errors) {
        this.errors = errors;
    }
    fail(message) {
        this.errors.push(message);
    }
    object(value, path, required = true) {
        if (value === undefined || value === null) {
            if (required)
                this.fail(`${path} is required`);
            return undefined;
        }
        if (typeof value !== 'object' || Array.isArray(value)) {
            this.fail(`${path} must be an object`);
            return undefined;
        }
        return value;
    }
    /** Optional string: absent and null read as null; anything else must be a string. */
    string(value, path, maxLength = 100_000) {
        if (value === undefined || value === null)
            return null;
        if (typeof value === 'number' && Number.isFinite(value))
            return String(value);
        if (typeof value !== 'string') {
            this.fail(`${path} must be a string`);
            return null;
        }
        if (value.length > maxLength)
            this.fail(`${path} cannot exceed ${maxLength} characters`);
        return value;
    }
    /** An address, size or line: stored as ClickHouse UInt64, so a whole number in its range. */
    count(value, path) {
        if (!isCount(value))
            this.fail(`${path} must be a non-negative integer`);
    }
}
const UINT64_LIMIT = 2 ** 64;
const isCount = (value) => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < UINT64_LIMIT;
/** Optional text of a report entry: absent, null or a string. */
const isText = (value) => value === undefined || value === null || typeof value === 'string';
function checkLayout(f, layout) {
    for (const [name, value] of Object.entries(layout)) {
        const path = `memory_analysis.memory_layout.${name}`;
        const region = f.object(value, path);
        if (!region)
            continue;
        for (const key of ['address', 'limit_size', 'used_size'])
            f.count(region[key], `${path}.${key}`);
        if (!isText(region.type))
            f.fail(`${path}.type must be a string`);
        if (region.sections === undefined)
            continue;
        if (!Array.isArray(region.sections)) {
            f.fail(`${path}.sections must be an array`);
            continue;
        }
        region.sections.forEach((section, i) => {
            const s = f.object(section, `${path}.sections[${i}]`);
            if (!s)
                return;
            if (typeof s.name !== 'string')
                f.fail(`${path}.sections[${i}].name must be a string`);
            f.count(s.address, `${path}.sections[${i}].address`);
            f.count(s.size, `${path}.sections[${i}].size`);
            if (!isText(s.type))
                f.fail(`${path}.sections[${i}].type must be a string`);
        });
    }
}
function checkSymbols(f, symbols) {
    if (symbols === undefined || symbols === null)
        return;
    if (!Array.isArray(symbols))
        return f.fail('memory_analysis.symbols must be an array');
    // Stop after a few bad entries: one message per bad field of 40k symbols helps nobody.
    let bad = 0;
    for (let i = 0; i < symbols.length && bad < 5; i++) {
        const s = symbols[i];
        if (!s || typeof s !== 'object') {
            f.fail(`memory_analysis.symbols[${i}] must be an object`);
            bad++;
        }
        else if (!symbolFits(s)) {
            const problems = symbolProblems(s, `memory_analysis.symbols[${i}]`);
            problems.forEach((problem) => f.fail(problem));
            bad += problems.length;
        }
    }
}
const SYMBOL_TEXT = [
    'type',
    'binding',
    'visibility',
    'section',
    'source_file',
    'archive',
    'object_file',
    'full_name',
];
const isLine = (value) => value === undefined || value === null || (isCount(value) && value < 2 ** 32);
/**
 * Whether the worker can store a symbol: checked at upload, so a bad symbol is a 400 naming it
 * rather than an ingest job failing after the upload was accepted. The fields of SYMBOL_TEXT
 * are spelled out because a fixed property read is several times faster than a lookup by key,
 * and this runs on every symbol of every upload.
 */
function symbolFits(s) {
    return (typeof s.name === 'string' &&
        isCount(s.address) &&
        isCount(s.size) &&
        isLine(s.source_line) &&
        isText(s.type) &&
        isText(s.binding) &&
        isText(s.visibility) &&
        isText(s.section) &&
        isText(s.source_file) &&
        isText(s.archive) &&
        isText(s.object_file) &&
        isText(s.full_name));
}
/** What does not fit, field by field, for the message of a symbol that `symbolFits` refused. */
function symbolProblems(s, path) {
    return [
        typeof s.name !== 'string' && `${path}.name must be a string`,
        !isCount(s.address) && `${path}.address must be a non-negative integer`,
        !isCount(s.size) && `${path}.size must be a non-negative integer`,
        !isLine(s.source_line) && `${path}.source_line must be a non-negative 32-bit integer`,
        ...SYMBOL_TEXT.map((key) => !isText(s[key]) && `${path}.${key} must be a string`),
    ].filter((problem) => Boolean(problem));
}
function parseTimestamp(f, value) {
    if (value === null || value === '')
        return null;
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) {
        f.fail('metadata.git.commit_timestamp must be an ISO 8601 date');
        return null;
    }
    return date;
}
/**
 * Checks an upload envelope as the MemBrowse CLI (any version since 1.0) or ours sends it.
 * Unknown keys are ignored and missing optional fields tolerated; every problem found is named
 * by its path in one 400 answer.
 */
export function validateUpload(body) {
    const errors = [];
    const f = new Fields(errors);
    const root = f.object(body, 'request body');
    const metadata = f.object(root?.metadata, 'metadata');
    const git = f.object(metadata?.git, 'metadata.git', false) ?? {};
    const analysis = f.object(root?.memory_analysis, 'memory_analysis');
    const identical = metadata?.identical === true;
    const buildFailed = metadata?.build_failed === true;
    const kind = buildFailed ? 'build_failed' : identical ? 'identical' : 'full';
    const targetName = f.string(metadata?.target_name, 'metadata.target_name', MAX_NAME)?.trim() ?? '';
    if (metadata && !targetName)
        f.fail('metadata.target_name is required');
    if ([...targetName].some((c) => c.charCodeAt(0) < 0x20)) {
        f.fail('metadata.target_name cannot contain control characters');
    }
    const rawSha = f.string(git.commit_hash, 'metadata.git.commit_hash', 64)?.trim().toLowerCase() ?? '';
    if (metadata && !rawSha)
        f.fail('metadata.git.commit_hash is required');
    else if (rawSha && !SHA.test(rawSha))
        f.fail('metadata.git.commit_hash must be a hexadecimal commit SHA');
    const noParent = 'parent_commit_hash' in git && git.parent_commit_hash === null;
    const base = f.string(git.base_commit_hash, 'metadata.git.base_commit_hash', 64)?.trim().toLowerCase() ||
        null;
    if (base && !SHA.test(base))
        f.fail('metadata.git.base_commit_hash must be a hexadecimal commit SHA');
    const parentSha = noParent || base === rawSha ? null : base;
    const tags = git.tags ?? [];
    if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string'))
        f.fail('metadata.git.tags must be an array of strings');
    if (analysis) {
        const layout = f.object(analysis.memory_layout, 'memory_analysis.memory_layout', false);
        if (kind === 'full' && (!layout || Object.keys(layout).length === 0)) {
            f.fail('memory_layout is required and cannot be empty');
        }
        else if (layout) {
            checkLayout(f, layout);
        }
        checkSymbols(f, analysis.symbols);
    }
    if (kind === 'identical' && !parentSha) {
        f.fail("metadata.git.base_commit_hash is required for an identical upload (its footprint is the parent's)");
    }
    const commit = {
        message: f.string(git.commit_message, 'metadata.git.commit_message'),
        authorName: f.string(git.author_name, 'metadata.git.author_name', 500),
        authorEmail: f.string(git.author_email, 'metadata.git.author_email', 500),
        committedAt: parseTimestamp(f, f.string(git.commit_timestamp, 'metadata.git.commit_timestamp', 100)),
        tags: Array.isArray(tags) ? tags : [],
    };
    const pr = {
        number: f.string(git.pr_number, 'metadata.git.pr_number', 50),
        name: f.string(git.pr_name, 'metadata.git.pr_name', 1000),
        authorName: f.string(git.pr_author_name, 'metadata.git.pr_author_name', 500),
        authorEmail: f.string(git.pr_author_email, 'metadata.git.pr_author_email', 500),
    };
    const branch = f.string(git.branch_name, 'metadata.git.branch_name', 500)?.trim() || null;
    const analysisVersion = f.string(metadata?.analysis_version, 'metadata.analysis_version', 100);
    const githubContext = parseGithubContext(metadata?.github_context, (problem) => f.fail(problem));
    if (errors.length > 0)
        throw new BadRequestException(errors.join('; '));
    const report = analysis;
    return {
        kind,
        targetName,
        commitSha: rawSha,
        parentSha,
        noParent,
        branch: branch === 'unknown' ? null : branch,
        commit,
        pr,
        analysisVersion,
        githubContext,
        report: { ...report, symbols: report.symbols ?? [], memory_layout: report.memory_layout ?? {} },
    };
}
