import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { HASH_BYTES, storedForm } from '@memtrail/symbol-blocks';
import { computeTotals } from '../totals.js';
import { validateUpload } from '../validate-upload.js';
export const tooLarge = (maxBytes) => new PayloadTooLargeException(`Request body exceeds the upload limit of ${maxBytes} bytes`);
function decompress(raw, maxBytes) {
    const bytes = Buffer.from(raw.bytes.buffer, raw.bytes.byteOffset, raw.bytes.byteLength);
    if (raw.encoding === 'identity' || raw.encoding === '')
        return bytes;
    if (raw.encoding !== 'gzip' && raw.encoding !== 'x-gzip') {
        throw new BadRequestException(`Unsupported Content-Encoding "${raw.encoding}": send JSON or gzip-compressed JSON`);
    }
    try {
        return gunzipSync(bytes, { maxOutputLength: maxBytes });
    }
    catch (error) {
        const code = error.code;
        if (code === 'ERR_BUFFER_TOO_LARGE' || error.name === 'RangeError')
            throw tooLarge(maxBytes);
        throw new BadRequestException(`Request body is not valid gzip: ${error.message}`);
    }
}
/**
 * Everything CPU-heavy about an upload — decompression, JSON parsing, hashing, validation,
 * totals, and splitting the symbols into content-addressed blocks — in one step, so it can run
 * on a decode thread and hand back only the small result (and the blocks, packed). Rejects with
 * the 4xx HttpException the client should get.
 */
export async function decodeUpload(raw, options) {
    if (raw.bytes.byteLength === 0)
        throw new BadRequestException('Request body is empty: send the report as JSON');
    const text = decompress(raw, options.maxBytes);
    let json;
    try {
        json = JSON.parse(text.toString('utf8'));
    }
    catch (error) {
        throw new BadRequestException(`Request body is not valid JSON: ${error.message}`);
    }
    const upload = validateUpload(json);
    const report = upload.report;
    const symbolCount = report.symbols.length;
    const totals = computeTotals(report);
    const { header, record, blocks } = storedForm(json, upload.kind);
    // The symbols are in the blocks now; the rest of the gateway needs only the layout.
    upload.report = { ...report, symbols: [] };
    return {
        upload,
        totals,
        symbolCount,
        header,
        record,
        blocks: pack(blocks),
        sha256: createHash('sha256').update(text).digest('hex'),
    };
}
function pack(blocks) {
    const hashes = Buffer.alloc(blocks.length * HASH_BYTES);
    const ends = new Uint32Array(blocks.length);
    const symbolCounts = new Uint32Array(blocks.length);
    let end = 0;
    blocks.forEach((b, i) => {
        hashes.write(b.hash, i * HASH_BYTES, 'hex');
        end += b.canonical.length;
        ends[i] = end;
        symbolCounts[i] = b.symbolCount;
    });
    const data = Buffer.concat(blocks.map((b) => b.canonical), end);
    return { hashes, data, ends, symbolCounts };
}
/** Block i of packed blocks: its hash and canonical bytes. */
export function packedBlock(blocks, i) {
    const start = i === 0 ? 0 : blocks.ends[i - 1];
    return {
        hash: Buffer.from(blocks.hashes.buffer, blocks.hashes.byteOffset + i * HASH_BYTES, HASH_BYTES),
        data: Buffer.from(blocks.data.buffer, blocks.data.byteOffset + start, blocks.ends[i] - start),
    };
}
/** The buffers of a decoded upload that a thread can hand over without copying. */
export function decodedBuffers(decoded) {
    const { header, record, blocks } = decoded;
    return [header, record, blocks.hashes, blocks.data, blocks.ends, blocks.symbolCounts]
        .filter((view) => view !== null)
        .map((view) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
}
