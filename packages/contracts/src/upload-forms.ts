/**
 * The media type of an upload the client sent already split into content-addressed blocks
 * (docs/query.md, "Uploads in block form"): the envelope without its symbols, the version
 * record and the blocks, in the binary form of @memtrail/symbol-blocks (upload-form.ts). Our
 * CLI sends full builds this way; the server checks only the blocks the target lacks.
 */
export const BLOCK_UPLOAD_TYPE = 'application/vnd.memtrail.blocks';
