import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DOCUMENT_SELECTOR, EXTENSIONS, isSupportedDocument } from '../src/languages';

describe('which documents the server indexes', () => {
  it('takes a document by its language id', () => {
    assert.equal(isSupportedDocument('python', '/ws/script'), true);
    assert.equal(isSupportedDocument('markdown', '/ws/notes.md'), false);
  });

  it('takes a file of an indexed extension whatever id another extension gave it', () => {
    assert.equal(isSupportedDocument('plaintext', '/ws/src/main.pony'), true, 'no Pony extension installed');
    assert.equal(isSupportedDocument('FortranFreeForm', '/ws/lib.f90'), true, "Modern Fortran's id");
    assert.equal(isSupportedDocument('plaintext', '/ws/Lib.HLSL'), true, 'extensions compare in lower case, as the server');
    assert.equal(isSupportedDocument('cpp', '/ws/x.h++'), true);
    assert.equal(isSupportedDocument('plaintext', '/ws/.bash'), false, 'a dot file has no extension');
    assert.equal(isSupportedDocument('plaintext', '/ws/a.txt'), false);
    assert.equal(isSupportedDocument('plaintext', undefined), false);
  });

  it('selects files by extension as well as by language id', () => {
    const patterns = DOCUMENT_SELECTOR.flatMap((f) => ('pattern' in f ? [f.pattern] : []));
    assert.deepEqual(patterns, [`**/*.{${EXTENSIONS.join(',')}}`]);
    assert.ok(DOCUMENT_SELECTOR.some((f) => 'language' in f && f.language === 'pony'));
    assert.ok(DOCUMENT_SELECTOR.some((f) => 'language' in f && f.language === 'markdown'), 'doc notes follow open notes');
    assert.equal(new Set(EXTENSIONS).size, EXTENSIONS.length);
  });
});
