# kexp plot; run `gnuplot cost_vs_n_spectrum_k_1.gp` here to redraw cost_vs_n_spectrum_k_1.svg
set terminal svg size 1000,708 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_spectrum_k_1.svg'
set title 'time against n: spectrum k=1 on hmm'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 8
set label 100 'kernel_ridge_classifier: lambda=0.1' at screen 0.01, screen 0.1130 left font ',12'
set label 101 'primal_ridge: lambda=0.1' at screen 0.01, screen 0.0819 left font ',12'
set label 102 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0508 left font ',12'
set label 103 'The primal map''s dimension D = 20 is below every n drawn.' at screen 0.01, screen 0.0198 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set logscale x
set logscale y
$line0 << EOD
200 0.008518904 0.005905012 0.018917840000000002
400 0.012181579333333333 0.009943460999999999 0.020690333
800 0.024774226666666666 0.018747389 0.042615214
1600 0.061265051833333334 0.05379772 0.077814176
EOD
$line1 << EOD
200 0.0006775746666666667 0.00056556 0.0011314909999999999
400 0.001344634 0.0012870849999999999 0.001568239
800 0.002808720333333334 0.002688016 0.003359557
1600 0.005698361 0.005505557 0.007529837
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge_classifier (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_ridge (primal)'
