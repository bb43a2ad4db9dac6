# kexp plot; run `gnuplot test_accuracy_vs_kernel.sigma.gp` here to redraw test_accuracy_vs_kernel.sigma.svg
set terminal svg size 1000,686 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_kernel.sigma.svg'
set title 'test accuracy against σ'
set xlabel 'σ (kernel.sigma)'
set ylabel 'test accuracy (dashed: validation accuracy)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'Each point: the cell with the highest validation_accuracy over solver.lambda.' at screen 0.01, screen 0.0845 left font ',12'
set label 101 'Points: mean over up to 3 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.0525 left font ',12'
set label 102 'Dashed: validation_accuracy on the training part, bars ± one standard deviation over the folds.' at screen 0.01, screen 0.0204 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('0.1' 0.1, '0.3' 0.3, '1' 1, '3' 3)
set logscale x
$line0 << EOD
0.1 0.9888888888888889 0.9761595119584561 1.0016182658193218
0.3 0.9944444444444445 0.9896331922011976 0.9992556966876913
1 1 1 1
3 0.9944444444444445 0.9896331922011976 0.9992556966876913
EOD
$line1 << EOD
0.1 0.9916666666666667 0.9840437161069672 0.9992896172263662
0.3 0.99375 0.9913443738783766 0.9961556261216234
1 0.9951388888888889 0.9918527424947439 0.998425035283034
3 0.9895833333333334 0.9816657253136587 0.997500941353008
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'gaussian map=none · kernel_ridge_classifier (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' title '  validation'
