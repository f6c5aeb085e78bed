// Types of scripts/student-files.mjs (a plain module: scripts/test.mjs runs it without a build).
export function isStudentFile(path: string, text: string): boolean;
export function splitTypeErrors(output: string, read: (path: string) => string): { student: string[]; course: string[] };
